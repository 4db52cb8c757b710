/**
 * Drafts of resumable uploads (docs/adr/0066-resumable-evidence-uploads.md): the folder that holds a
 * report's files between the moment each is chosen and Simpan. Everything lives on disk under one
 * root, so every replica that sees the folder serves every draft and every upload offset (the tus
 * file store keeps an upload's offset as the size of its file):
 *
 *   {root}/uploads/{uploadId}        the tus file store: the bytes received, and `{uploadId}.json`
 *   {root}/drafts/{draftId}/draft.json          when the draft was opened, and filed
 *   {root}/drafts/{draftId}/{uploadId}.json     one file of the draft: name, field, state, reason
 *
 * The draft id is a keyed hash of the draft token: the token itself is never stored, so reading the
 * folder does not give what is needed to add to, list or file a draft. Records are written whole
 * (temporary file + rename), one per file, so two replicas finishing two files at once cannot lose one.
 *
 * A draft's file list changes only under its lock (draft-lock.ts, docs/adr/0075-one-writer-per-draft.md):
 * a file is added after its limits were checked against the list in the same step (`change`), a verdict
 * is written only for a file still in the list (a file removed while it was being scrubbed stays
 * removed), and a removal waits for both.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { UPLOAD_DRAFT_TOKEN_PATTERN, type UploadField } from '@wbs/shared/api/uploads';
import { type DraftLock, processLock } from './draft-lock.ts';

/** A draft and its files are removed this long after it was opened (docs/product/limits.md). */
export const DRAFT_TTL_MS = 24 * 60 * 60 * 1000;

export type DraftFile = {
  id: string;
  field: UploadField;
  name: string;
  size: number;
  state: 'uploading' | 'accepted' | 'refused';
  reason: string | null;
  /** Set once accepted: what the submission forwards and fingerprints. */
  ext?: string;
  detected?: string;
  /** SHA-256 of the bytes as received. */
  sha256?: string;
  /** The checked (and, where possible, scrubbed) file. */
  path?: string;
  /** Its size as forwarded. */
  forwardedSize?: number;
};

/**
 * What a draft may be spent on, and by whom (docs/adr/0066-resumable-evidence-uploads.md, "Binding"):
 * - `purpose`: the form it was opened for (the report wizard, Tambah Bukti, an activity log); a draft
 *   is filed only by that form's submission, and its files follow that form's limits (draft-rules.ts);
 * - `owner`: `user:{id}` of the session that opened it, or `guest`; every upload request and the
 *   submission must come from the same (a draft of one staff user is nobody else's);
 * - `caseRef`: `{companyId}:{caseId}` of the case a Tambah Bukti or log draft was opened for, after the
 *   caller proved access to it (scope, or the tracker's number and password); null for the wizard;
 * - `room`: how many files the case could still take when the draft was opened (Tambah Bukti).
 */
export type DraftPurpose = 'case' | 'evidence' | 'log';
export type DraftBinding = {
  purpose: DraftPurpose;
  /** Null only for a draft written before drafts were bound (see UNBOUND). */
  owner: string | null;
  caseRef: string | null;
  room: number | null;
};

type DraftMeta = { createdAt: number; filedAt: number | null; binding?: DraftBinding };

export type Draft = { id: string; createdAt: number; filedAt: number | null; binding: DraftBinding };

/**
 * A draft written before drafts were bound (the wizard's, the only kind there was): its owner is not
 * known, so it is checked on its purpose only. Such drafts are gone 24 h after the change.
 */
const UNBOUND: DraftBinding = { purpose: 'case', owner: null, caseRef: null, room: null };

export type Drafts = ReturnType<typeof createDrafts>;

/** A draft's file list as one writer sees it, inside `change` (and only there). */
export type DraftWriter = {
  /** The draft as it is now: filed meanwhile, or gone (expired, removed), shows here. */
  draft(): Promise<Draft | null>;
  files(): Promise<DraftFile[]>;
  /** Records a new file, or a file's new state. */
  put(file: DraftFile): Promise<void>;
  /** Removes a file: its record, its bytes and whatever was derived from them. */
  remove(uploadId: string): Promise<void>;
};

// Not `wbs-upload-…`: that prefix names the per-process spools, which a restart may remove as its own.
export const defaultDraftsRoot = () => join(tmpdir(), 'wbs-evidence-drafts');

async function writeWhole(path: string, value: unknown): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, JSON.stringify(value), { mode: 0o600 });
  await rename(temporary, path);
}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return null;
  }
}

export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/**
 * `secret` keys the draft ids (the session secret: every replica has the same one); `lock` keeps the
 * writers of one draft apart (default: within this process only); `now` is the clock (tests move it).
 */
export function createDrafts(options: {
  root: string;
  secret: string;
  lock?: DraftLock;
  now?: () => number;
}) {
  const now = options.now ?? (() => Date.now());
  const lock = options.lock ?? processLock();
  const uploadsDir = join(options.root, 'uploads');
  const draftsDir = join(options.root, 'drafts');
  const idOf = (token: string) =>
    createHmac('sha256', options.secret).update(`wbs-upload-draft\n${token}`).digest('hex').slice(0, 40);
  const dirOf = (draftId: string) => join(draftsDir, draftId);
  const fileRecord = (draftId: string, uploadId: string) => join(dirOf(draftId), `${uploadId}.json`);

  const ready = (async () => {
    await mkdir(uploadsDir, { recursive: true, mode: 0o700 });
    await mkdir(draftsDir, { recursive: true, mode: 0o700 });
  })();

  async function files(draftId: string): Promise<DraftFile[]> {
    const names = await readdir(dirOf(draftId)).catch(() => [] as string[]);
    const records = await Promise.all(
      names
        .filter((n) => n.endsWith('.json') && n !== 'draft.json')
        .map((n) => readJson<DraftFile & { createdAt?: number }>(join(dirOf(draftId), n))),
    );
    return records
      .filter((r): r is DraftFile & { createdAt?: number } => r !== null)
      .sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0));
  }

  /** Removes an upload's bytes, its tus record and whatever was derived from it. */
  async function removeUploadFiles(uploadId: string): Promise<void> {
    const names = await readdir(uploadsDir).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((n) => n === uploadId || n.startsWith(`${uploadId}.`))
        .map((n) => rm(join(uploadsDir, n), { force: true })),
    );
  }

  async function remove(draftId: string): Promise<void> {
    for (const file of await files(draftId)) await removeUploadFiles(file.id);
    await rm(dirOf(draftId), { recursive: true, force: true });
  }

  async function byId(draftId: string): Promise<Draft | null> {
    const meta = await readJson<DraftMeta>(join(dirOf(draftId), 'draft.json'));
    if (!meta) return null;
    if (now() - meta.createdAt >= DRAFT_TTL_MS) {
      await remove(draftId);
      return null;
    }
    return {
      id: draftId,
      createdAt: meta.createdAt,
      filedAt: meta.filedAt,
      binding: meta.binding ?? UNBOUND,
    };
  }

  function writer(draftId: string): DraftWriter {
    return {
      draft: () => byId(draftId),
      files: () => files(draftId),
      async put(file) {
        const previous = await readJson<{ createdAt?: number }>(fileRecord(draftId, file.id));
        await writeWhole(fileRecord(draftId, file.id), { ...file, createdAt: previous?.createdAt ?? now() });
      },
      async remove(uploadId) {
        await removeUploadFiles(uploadId);
        await rm(fileRecord(draftId, uploadId), { force: true });
      },
    };
  }

  /** Runs `work` as the draft's one writer (across processes where the lock is shared). */
  function change<T>(draftId: string, work: (draft: DraftWriter) => Promise<T>): Promise<T> {
    return lock(draftId, () => work(writer(draftId)));
  }

  return {
    uploadsDir,
    ready,
    idOf,

    /** A new draft: the token goes to the page (and only there), the id names its folder. */
    async open(binding: DraftBinding): Promise<{ token: string; draft: Draft; expiresAt: Date }> {
      await ready;
      const token = randomBytes(32).toString('base64url');
      const id = idOf(token);
      const createdAt = now();
      await mkdir(dirOf(id), { mode: 0o700 });
      await writeWhole(join(dirOf(id), 'draft.json'), {
        createdAt,
        filedAt: null,
        binding,
      } satisfies DraftMeta);
      return {
        token,
        draft: { id, createdAt, filedAt: null, binding },
        expiresAt: new Date(createdAt + DRAFT_TTL_MS),
      };
    },

    /** The draft a token opens; null for an unknown, malformed or expired token (expired: removed). */
    async find(token: string | undefined | null): Promise<Draft | null> {
      if (typeof token !== 'string' || !UPLOAD_DRAFT_TOKEN_PATTERN.test(token)) return null;
      return byId(idOf(token));
    },

    files,

    async file(draftId: string, uploadId: string): Promise<DraftFile | null> {
      return readJson<DraftFile>(fileRecord(draftId, uploadId));
    },

    change,

    /**
     * A file's verdict (accepted or refused), written only while the file is still in the draft: one
     * removed meanwhile (Hapus, or replaced by its own creation sent again) stays removed, and what was
     * derived from it goes too. Answers whether it was written.
     */
    settleFile(draftId: string, file: DraftFile): Promise<boolean> {
      return change(draftId, async (draft) => {
        if ((await readJson<DraftFile>(fileRecord(draftId, file.id))) === null) {
          await removeUploadFiles(file.id);
          return false;
        }
        await draft.put(file);
        return true;
      });
    },

    removeFile(draftId: string, uploadId: string): Promise<void> {
      return change(draftId, (draft) => draft.remove(uploadId));
    },

    /**
     * After Simpan: the files' bytes go (the legacy holds the report now), their records stay until
     * the draft expires, so a retried submission (same Idempotency-Key) is fingerprinted alike and gets
     * the first reply.
     */
    async markFiled(draft: Draft): Promise<void> {
      for (const file of await files(draft.id)) await removeUploadFiles(file.id);
      await writeWhole(join(dirOf(draft.id), 'draft.json'), {
        createdAt: draft.createdAt,
        filedAt: now(),
        binding: draft.binding,
      } satisfies DraftMeta);
    },

    remove,

    /**
     * Removes drafts opened 24 h ago or more, and uploads no draft names any more (a draft removed
     * while a file was still arriving). Returns how many drafts went.
     */
    async sweep(): Promise<number> {
      await ready;
      let removed = 0;
      const known = new Set<string>();
      for (const draftId of await readdir(draftsDir).catch(() => [] as string[])) {
        const meta = await readJson<DraftMeta>(join(dirOf(draftId), 'draft.json'));
        const createdAt = meta?.createdAt ?? (await stat(dirOf(draftId)).catch(() => null))?.mtimeMs ?? 0;
        if (now() - createdAt >= DRAFT_TTL_MS) {
          await remove(draftId);
          removed += 1;
          continue;
        }
        for (const file of await files(draftId)) known.add(file.id);
      }
      for (const name of await readdir(uploadsDir).catch(() => [] as string[])) {
        const uploadId = name.split('.')[0] ?? name;
        if (known.has(uploadId)) continue;
        const info = await stat(join(uploadsDir, name)).catch(() => null);
        if (info && now() - info.mtimeMs >= DRAFT_TTL_MS) await rm(join(uploadsDir, name), { force: true });
      }
      return removed;
    },
  };
}
