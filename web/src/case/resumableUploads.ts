/**
 * Evidence uploaded as soon as it is chosen, resumably (tus 1.0 with tus-js-client): each file goes
 * to the gateway in the background while the reporter fills the form, survives a dropped link (the
 * client asks the gateway how far it got and goes on from there, retrying with back-off), can be
 * paused and resumed, and learns its verdict (accepted, or refused and why) as soon as it completes
 * (docs/product/reporting.md#uploads).
 *
 * Nothing is kept beyond the page's memory: no draft token, upload URL or fingerprint in any browser
 * storage (tus-js-client's resume store is off), so a reload starts over and a shared device keeps no
 * trace of the report (docs/adr/0066-resumable-evidence-uploads.md, "Reload").
 *
 * Every upload place uses this one hook: the report wizard (the default draft), Tambah Bukti and an
 * activity log's attachment, each opening its own draft bound to its form and case (`open`). A gateway
 * without drafts (404 on opening one) means the files go with the form in one request, as before:
 * `mode` says which.
 */
import type { UploadedFile } from '@wbs/shared/api/uploads';
import { UPLOAD_DRAFT_HEADER } from '@wbs/shared/api/uploads';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { DetailedError, Upload } from 'tus-js-client';
import { ApiError, api } from '../api/client.ts';

export type UploadPhase =
  | 'waiting'
  | 'uploading'
  | 'retrying'
  | 'paused'
  | 'checking'
  | 'accepted'
  | 'refused'
  | 'failed';

export type UploadStatus = {
  phase: UploadPhase;
  sent: number;
  total: number;
  /** Estimated seconds left, null while unknown. */
  secondsLeft: number | null;
  /** Why the gateway refused the file, or why the upload stopped. */
  reason: string | null;
};

type Entry = {
  file: File;
  field: 'evidence' | 'attachments';
  upload: Upload | null;
  status: UploadStatus;
  /** The upload's id once created (the last segment of its URL). */
  id: string | null;
  /** Smoothed bytes per second. */
  rate: number | null;
  lastSample: { at: number; sent: number } | null;
};

/**
 * Back-off after a drop: quick at first, then every 15 s, for as long as the page is open. A
 * retry that made progress starts the list again (tus-js-client), so a link that comes and goes
 * never exhausts it.
 */
const RETRY_DELAYS = [0, 1000, 2000, 4000, 8000, 15000, ...Array.from({ length: 40 }, () => 15000)];

const DRAFT_RETRY_MS = [1000, 2000, 4000, 8000, 15000];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function problemDetail(error: Error): string | null {
  if (!(error instanceof DetailedError)) return null;
  const response = error.originalResponse;
  if (!response) return null;
  try {
    const body = JSON.parse(response.getBody()) as { detail?: string; errors?: Record<string, string> };
    return Object.values(body.errors ?? {})[0] ?? body.detail ?? null;
  } catch {
    return null;
  }
}

export type ResumableUploads = ReturnType<typeof useResumableUploads>;

/** Opens the draft the files go into; answers its token (the route names the form and the case). */
export type DraftOpener = () => Promise<{ token: string }>;

const openWizardDraft: DraftOpener = () => api.POST('/api/v1/upload-drafts', {});

export function useResumableUploads(open: DraftOpener = openWizardDraft) {
  // The latest opener: the page may build it anew on every render.
  const opener = useRef(open);
  opener.current = open;
  const entries = useRef(new Map<File, Entry>());
  const draft = useRef<Promise<string | null> | null>(null);
  const [mode, setMode] = useState<'resumable' | 'single'>('resumable');
  const [statuses, setStatuses] = useState<ReadonlyMap<File, UploadStatus>>(new Map());
  const waiters = useRef<(() => void)[]>([]);

  const publish = useCallback(() => {
    setStatuses(new Map([...entries.current].map(([file, entry]) => [file, entry.status])));
    const busy = [...entries.current.values()].some((e) => !isSettled(e.status.phase));
    if (!busy) for (const wake of waiters.current.splice(0)) wake();
  }, []);

  const set = useCallback(
    (entry: Entry, patch: Partial<UploadStatus>) => {
      if (entries.current.get(entry.file) !== entry) return;
      entry.status = { ...entry.status, ...patch };
      publish();
    },
    [publish],
  );

  /** The draft's token; null when the gateway has no drafts (single-request mode). */
  const openDraft = useCallback((): Promise<string | null> => {
    draft.current ??= (async () => {
      for (let attempt = 0; ; attempt += 1) {
        try {
          const reply = await opener.current();
          return reply.token;
        } catch (error) {
          if (error instanceof ApiError && (error.status === 404 || error.status === 405)) {
            setMode('single');
            return null;
          }
          if (error instanceof ApiError && error.status > 0 && error.status < 500 && error.status !== 429) {
            draft.current = null;
            throw error;
          }
          await sleep(DRAFT_RETRY_MS[Math.min(attempt, DRAFT_RETRY_MS.length - 1)] ?? 15000);
        }
      }
    })();
    return draft.current;
  }, []);

  const verdict = useCallback(
    async (entry: Entry, token: string) => {
      set(entry, { phase: 'checking', sent: entry.status.total, secondsLeft: 0 });
      for (let attempt = 0; attempt < 20; attempt += 1) {
        try {
          const reply = await api.GET('/api/v1/upload-drafts/files', {
            headers: { [UPLOAD_DRAFT_HEADER]: token },
          } as never);
          const mine = (reply as { items: UploadedFile[] }).items.find((f) => f.id === entry.id);
          if (mine && mine.state !== 'uploading') {
            set(entry, { phase: mine.state, reason: mine.reason });
            return;
          }
        } catch {
          // the link dropped again: ask again below
        }
        await sleep(DRAFT_RETRY_MS[Math.min(attempt, DRAFT_RETRY_MS.length - 1)] ?? 15000);
      }
      set(entry, { phase: 'failed', reason: 'Hasil pemeriksaan file belum diterima. Coba lagi.' });
    },
    [set],
  );

  const begin = useCallback(
    async (entry: Entry) => {
      let token: string | null;
      try {
        token = await openDraft();
      } catch (error) {
        set(entry, {
          phase: 'failed',
          reason: error instanceof ApiError ? (error.messages[0] ?? null) : null,
        });
        return;
      }
      if (token === null || entries.current.get(entry.file) !== entry) return;
      const upload = new Upload(entry.file, {
        endpoint: '/api/v1/uploads',
        headers: { [UPLOAD_DRAFT_HEADER]: token },
        metadata: { filename: entry.file.name, field: entry.field },
        retryDelays: RETRY_DELAYS,
        // Never in browser storage: a shared device keeps no trace (see the module comment).
        storeFingerprintForResuming: false,
        removeFingerprintOnSuccess: true,
        onUploadUrlAvailable: () => {
          entry.id = upload.url?.split('/').pop() ?? null;
        },
        onProgress: (sent, total) => {
          const now = performance.now();
          const last = entry.lastSample;
          if (last && now - last.at >= 500) {
            const rate = ((sent - last.sent) * 1000) / (now - last.at);
            entry.rate = entry.rate === null ? rate : entry.rate * 0.7 + rate * 0.3;
            entry.lastSample = { at: now, sent };
          } else if (!last) entry.lastSample = { at: now, sent };
          const secondsLeft = entry.rate && entry.rate > 0 ? Math.ceil((total - sent) / entry.rate) : null;
          set(entry, { phase: 'uploading', sent, total, secondsLeft, reason: null });
        },
        // tus-js-client's own rule (a refusal, 4xx other than 409/423, is final), plus the row's state.
        onShouldRetry: (error) => {
          const status = error instanceof DetailedError ? (error.originalResponse?.getStatus() ?? 0) : 0;
          const final = status >= 400 && status < 500 && status !== 409 && status !== 423;
          if (final) return false;
          set(entry, { phase: 'retrying' });
          entry.lastSample = null;
          entry.rate = null;
          return true;
        },
        onSuccess: () => void verdict(entry, token),
        onError: (error) => {
          set(entry, {
            phase: 'failed',
            reason: problemDetail(error) ?? 'Unggahan terputus. Periksa koneksi lalu tekan Coba Lagi.',
          });
        },
      });
      entry.upload = upload;
      set(entry, { phase: 'uploading' });
      upload.start();
    },
    [openDraft, set, verdict],
  );

  /** Starts uploading a chosen file (its place in the form is the caller's). */
  const add = useCallback(
    (file: File, field: 'evidence' | 'attachments') => {
      if (mode === 'single' || entries.current.has(file)) return;
      const entry: Entry = {
        file,
        field,
        upload: null,
        id: null,
        rate: null,
        lastSample: null,
        status: { phase: 'waiting', sent: 0, total: file.size, secondsLeft: null, reason: null },
      };
      entries.current.set(file, entry);
      publish();
      void begin(entry);
    },
    [begin, mode, publish],
  );

  /** Hapus: stops the upload and removes it from the draft. */
  const remove = useCallback(
    (file: File) => {
      const entry = entries.current.get(file);
      if (!entry) return;
      entries.current.delete(file);
      publish();
      // Terminating sends DELETE with the same headers (the draft token).
      void entry.upload?.abort(entry.id !== null).catch(() => undefined);
    },
    [publish],
  );

  const pause = useCallback(
    (file: File) => {
      const entry = entries.current.get(file);
      if (!entry?.upload || isSettled(entry.status.phase)) return;
      void entry.upload.abort();
      set(entry, { phase: 'paused', secondsLeft: null });
    },
    [set],
  );

  const resume = useCallback(
    (file: File) => {
      const entry = entries.current.get(file);
      if (!entry) return;
      if (!entry.upload) {
        void begin(entry);
        return;
      }
      entry.lastSample = null;
      set(entry, { phase: 'uploading', reason: null });
      entry.upload.start();
    },
    [begin, set],
  );

  /** Resolves when no file is still on its way (each accepted, refused, failed or paused). */
  const settled = useCallback(
    () =>
      new Promise<void>((resolve) => {
        const busy = [...entries.current.values()].some((e) => !isSettled(e.status.phase));
        if (!busy) resolve();
        else waiters.current.push(resolve);
      }),
    [],
  );

  /** Forgets everything (after filing, or a new report): uploads stop, the draft is left to expire. */
  const reset = useCallback(() => {
    for (const entry of entries.current.values()) void entry.upload?.abort();
    entries.current.clear();
    draft.current = null;
    publish();
  }, [publish]);

  useEffect(() => reset, [reset]);

  const token = useCallback(async () => (mode === 'single' ? null : openDraft()), [mode, openDraft]);

  return useMemo(
    () => ({ mode, statuses, add, remove, pause, resume, settled, reset, token }),
    [mode, statuses, add, remove, pause, resume, settled, reset, token],
  );
}

export function isSettled(phase: UploadPhase): boolean {
  return phase === 'accepted' || phase === 'refused' || phase === 'failed' || phase === 'paused';
}

/** "12 detik", "3 menit": the time left as a reporter reads it. */
export function timeLeftText(seconds: number | null): string {
  if (seconds === null) return 'menghitung sisa waktu…';
  if (seconds < 60) return `sisa ${Math.max(1, seconds)} detik`;
  const minutes = Math.ceil(seconds / 60);
  return `sisa ${minutes} menit`;
}
