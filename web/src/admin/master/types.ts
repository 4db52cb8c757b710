import type { ReactNode } from 'react';
import type { ApiPath, Query } from '../../api/client.ts';
import type { ConfirmOptions } from '../../ui/ConfirmDialog.tsx';

export type FormMode<T> = { kind: 'add' } | { kind: 'view' | 'edit'; row: T };

export type Column<T> = { header: string; cell: (row: T) => ReactNode };

/** The query parameters of one page of a server-paged list. */
export const pageParams = ({ page, pageSize }: { page: number; pageSize: number }) => ({
  params: { query: { page: String(page), pageSize: String(pageSize) } },
});

/** What the scaffold reads of a save's reply: the success message, a new account's initial password. */
export type SavedReply = { message?: string; initialPassword?: string | null };

/**
 * The calls of one master resource, written by each screen with the typed client: a renamed path,
 * field or body member fails the typecheck there. `B` is the body of a create and of an update.
 */
export type MasterApi<T, B> = {
  /** The list's path: every SWR key of the resource (list, records) starts with it; a save reloads them. */
  path: ApiPath<'get'>;
  list: (paging: { page: number; pageSize: number }) => Query<{ items: T[]; total?: number }>;
  /** The record read for View/Edit; without it the list row is the record (it carries every field). */
  detail?: (id: number) => Query<T>;
  /** Create (no id) or update. */
  save: (body: B, id?: number) => Promise<SavedReply>;
};

/** What one master screen is: its texts (spec sections 2, 4 and 5), its calls and its table. */
export type MasterScreenSpec<T, B> = {
  title: string;
  addLabel: string;
  api: MasterApi<T, B>;
  /** Server-side paging (page, pageSize); otherwise one `items` list. */
  paged: boolean;
  columns: Column<T>[];
  /** Form titles per mode. */
  titles: { add: string; edit: string; view: string };
  saveConfirm: Omit<ConfirmOptions, 'actionLabel'>;
  /** Hapus: its confirmation and its call; none: the screen offers no Hapus. */
  remove?: Omit<ConfirmOptions, 'actionLabel'> & { call: (id: number) => Promise<SavedReply> };
};
