/** Client-side checks of files chosen in the wizard (spec section 5, "Attachments"). */
import { ATTACHMENT_EXTENSIONS, ATTACHMENT_MAX_BYTES, ATTACHMENTS_PER_CASE } from '@wbs/shared/constants';
import { format, TEMPLATE_MESSAGES, UI_MESSAGES } from '@wbs/shared/messages';

export type FileLike = { name: string; size: number };

const ALLOWED = new Set<string>(ATTACHMENT_EXTENSIONS);

export const ACCEPT_ATTRIBUTE = ATTACHMENT_EXTENSIONS.map((ext) => `.${ext}`).join(',');

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Why a single file is refused (type or size), or null. */
export function fileProblem(file: FileLike): string | null {
  if (!ALLOWED.has(extensionOf(file.name)))
    return format(TEMPLATE_MESSAGES.fileTypeNotAllowed, { name: file.name });
  if (file.size > ATTACHMENT_MAX_BYTES) return format(TEMPLATE_MESSAGES.fileTooLarge, { name: file.name });
  return null;
}

/**
 * Checks the main evidence file against the other attachments: type, size, duplicate name.
 * Returns the message to show, or null when the file may be used.
 */
export function checkEvidence<F extends FileLike>(file: F, attachments: readonly F[]): string | null {
  const problem = fileProblem(file);
  if (problem) return problem;
  if (attachments.some((a) => a.name === file.name))
    return format(TEMPLATE_MESSAGES.fileDuplicate, { name: file.name });
  return null;
}

/**
 * Adds further attachments to those already chosen. The main evidence file counts towards the
 * case total of 5 (the gateway takes `evidence` plus at most 4 `attachments`), so at most 4 more.
 * Refused files are reported one message each; accepted ones keep their order.
 */
export function addAttachments<F extends FileLike>(
  evidence: F | null,
  current: readonly F[],
  incoming: readonly F[],
): { attachments: F[]; messages: string[] } {
  const maxExtra = ATTACHMENTS_PER_CASE - 1;
  const messages: string[] = [];
  if (incoming.length === 0) return { attachments: [...current], messages };
  if (current.length >= maxExtra)
    return { attachments: [...current], messages: [UI_MESSAGES.attachmentsLimitReached] };
  const next = [...current];
  const names = new Set([...(evidence ? [evidence.name] : []), ...current.map((f) => f.name)]);
  let overLimit = false;
  for (const file of incoming) {
    const problem = fileProblem(file);
    if (problem) {
      messages.push(problem);
      continue;
    }
    if (names.has(file.name)) {
      messages.push(format(TEMPLATE_MESSAGES.fileDuplicate, { name: file.name }));
      continue;
    }
    if (next.length >= maxExtra) {
      overLimit = true;
      continue;
    }
    names.add(file.name);
    next.push(file);
  }
  if (overLimit) messages.push(format(TEMPLATE_MESSAGES.tooManyAttachments, { limit: ATTACHMENTS_PER_CASE }));
  return { attachments: next, messages };
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The accepted-files help text: every extension of spec section 5. */
export const ACCEPTED_FILES_HELP = `Maksimal 10 MB. Jenis file: ${ATTACHMENT_EXTENSIONS.join(', ')}.`;

const FILE_FIELDS = new Set(['evidence', 'attachments']);

/**
 * Places the server's refusals of files (`errors.evidence`, `errors.attachments`, `attachments.2`…)
 * next to the files they name: by the file name in the message, else by the index in the key, else
 * the only file of that field. What names no file stays a field error under its picker.
 */
export function fileErrorsFrom<F extends FileLike>(
  fieldErrors: Record<string, string>,
  evidence: F | null,
  attachments: readonly F[],
): { byFile: Record<string, string>; unplaced: Record<string, string> } {
  const byFile: Record<string, string> = {};
  const unplaced: Record<string, string> = {};
  const all = [...(evidence ? [evidence] : []), ...attachments];
  const put = (name: string, message: string) => {
    byFile[name] = byFile[name] && byFile[name] !== message ? `${byFile[name]}\n${message}` : message;
  };
  for (const [key, message] of Object.entries(fieldErrors)) {
    const [root, index] = key.split(/[.[\]]+/).filter(Boolean);
    if (!root || !FILE_FIELDS.has(root)) continue;
    const named = all.filter((file) => message.includes(file.name));
    if (named.length > 0) {
      for (const file of named) put(file.name, message);
      continue;
    }
    const candidates = root === 'evidence' ? (evidence ? [evidence] : []) : attachments;
    const byIndex = index !== undefined ? candidates[Number(index)] : undefined;
    const target = byIndex ?? (candidates.length === 1 ? candidates[0] : undefined);
    if (target) put(target.name, message);
    else unplaced[root] = message;
  }
  return { byFile, unplaced };
}
