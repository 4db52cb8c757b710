/**
 * Tambah Bukti with resumable uploads: each chosen file starts uploading at once into a draft of the
 * tracked case (tus-js-client, replaced here by a stand-in that reports progress and completes), a
 * refused file says why next to its name before anything is sent, and Unggah Bukti sends only the
 * text parts with the draft's header.
 */
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeGateway } from '../../test/fakeGateway.ts';
import { system } from '../../theme.ts';
import { AddEvidence } from './AddEvidence.tsx';

vi.mock('../../ui/toaster.tsx', () => ({
  notify: { problem: vi.fn(), success: vi.fn(), warning: vi.fn() },
}));

type TusOptions = {
  endpoint: string;
  headers: Record<string, string>;
  metadata: Record<string, string>;
  onUploadUrlAvailable?: () => void;
  onProgress?: (sent: number, total: number) => void;
  onSuccess?: () => void;
};
const started = vi.hoisted(() => [] as { file: File; options: TusOptions }[]);

vi.mock('tus-js-client', () => {
  class Upload {
    url: string | null = null;
    file: File;
    options: TusOptions;
    constructor(file: File, options: TusOptions) {
      this.file = file;
      this.options = options;
    }
    start() {
      started.push({ file: this.file, options: this.options });
      this.url = `/api/v1/uploads/${this.file.name === 'rusak.png' ? 'b'.repeat(32) : 'a'.repeat(32)}`;
      this.options.onUploadUrlAvailable?.();
      this.options.onProgress?.(this.file.size / 2, this.file.size);
      setTimeout(() => this.options.onSuccess?.(), 10);
    }
    abort() {
      return Promise.resolve();
    }
  }
  return { Upload, DetailedError: class extends Error {} };
});

/** The one multipart post (upload() uses XMLHttpRequest for its progress): what it carried. */
type Sent = { url: string; headers: Record<string, string>; body: FormData };
function fakeXhr(): Sent[] {
  const sent: Sent[] = [];
  class FakeXhr {
    status = 0;
    responseText = '';
    upload = { onprogress: null };
    onload: (() => void) | null = null;
    private url = '';
    private headers: Record<string, string> = {};
    withCredentials = false;
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    getResponseHeader() {
      return 'application/json';
    }
    send(body: FormData) {
      sent.push({ url: this.url, headers: this.headers, body });
      this.status = 201;
      this.responseText = JSON.stringify({ message: 'Bukti berhasil ditambahkan', attachments: [] });
      setTimeout(() => this.onload?.(), 0);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  started.length = 0;
});

const access = { kind: 'tracker', caseNumber: 'WBS-10000002', password: 'Lapor#2026!' } as const;
const TOKEN = 'T'.repeat(43);
const REFUSAL = 'Isi file rusak.png tidak sesuai dengan jenisnya';

describe('Tambah Bukti with files uploaded as they are chosen', () => {
  it('uploads into the case’s draft, shows a refusal next to its file, and sends only the text parts', async () => {
    const calls = fakeGateway({
      'POST /tracking/attachments/upload-drafts': () => ({
        status: 201,
        body: { token: TOKEN, expiresAt: '2026-12-01T00:00:00Z' },
      }),
      'GET /upload-drafts/files': () => ({
        status: 200,
        body: {
          items: [
            {
              id: 'a'.repeat(32),
              field: 'attachments',
              name: 'baik.pdf',
              size: 8,
              state: 'accepted',
              reason: null,
            },
            {
              id: 'b'.repeat(32),
              field: 'attachments',
              name: 'rusak.png',
              size: 8,
              state: 'refused',
              reason: REFUSAL,
            },
          ],
        },
      }),
    });
    const sent = fakeXhr();
    const onAdded = vi.fn();
    const { container } = render(
      <ChakraProvider value={system}>
        <AddEvidence access={access} existingNames={[]} onAdded={onAdded} />
      </ChakraProvider>,
    );
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    const good = new File(['%PDF-1.7'], 'baik.pdf', { type: 'application/pdf' });
    const bad = new File(['not-png!'], 'rusak.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [good, bad] } });

    // The draft is opened with the tracker's proof, once, and each file goes into it at once.
    await waitFor(() => expect(started).toHaveLength(2));
    const opened = calls.filter((c) => c.path === '/tracking/attachments/upload-drafts');
    expect(opened).toHaveLength(1);
    expect(opened[0]?.body).toEqual({ caseNumber: access.caseNumber, password: access.password });
    for (const upload of started) {
      expect(upload.options.endpoint).toBe('/api/v1/uploads');
      expect(upload.options.headers['Upload-Draft']).toBe(TOKEN);
      expect(upload.options.metadata).toEqual({ filename: upload.file.name, field: 'attachments' });
    }

    // The verdicts arrive before anything is sent: the refusal next to its file, the other accepted.
    const badRow = container.querySelector('[data-file-name="rusak.png"]') as HTMLElement;
    await waitFor(() => expect(within(badRow).getByRole('alert').textContent).toBe(REFUSAL));
    const goodRow = container.querySelector('[data-file-name="baik.pdf"]') as HTMLElement;
    await waitFor(() => expect(within(goodRow).getByText('Terunggah')).toBeTruthy());
    expect(sent).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Unggah Bukti' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    const [post] = sent;
    expect(post?.url).toBe('/api/v1/tracking/attachments');
    expect(post?.headers['Upload-Draft']).toBe(TOKEN);
    expect(post?.headers['Idempotency-Key']).toMatch(/^[a-f0-9]{32}$/);
    expect([...(post?.body.keys() ?? [])]).toEqual(['caseNumber', 'password']);
    await waitFor(() => expect(onAdded).toHaveBeenCalled());
  });

  it('falls back to one request with the files when the gateway opens no draft', async () => {
    fakeGateway({});
    const sent = fakeXhr();
    const { container } = render(
      <ChakraProvider value={system}>
        <AddEvidence access={access} existingNames={[]} onAdded={vi.fn()} />
      </ChakraProvider>,
    );
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['%PDF-1.7'], 'baik.pdf')] } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Unggah Bukti' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.headers['Upload-Draft']).toBeUndefined();
    expect(sent[0]?.body.getAll('attachments').map((f) => (f as File).name)).toEqual(['baik.pdf']);
  });
});
