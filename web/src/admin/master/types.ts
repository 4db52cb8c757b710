import type { ReactNode } from 'react';
import type { ConfirmOptions } from '../../ui/ConfirmDialog.tsx';

export type FormMode<T> = { kind: 'add' } | { kind: 'view' | 'edit'; row: T };

export type Column<T> = { header: string; cell: (row: T) => ReactNode };

/** What one master screen is: its texts (spec sections 2, 4 and 5), its endpoint and its table. */
export type MasterScreenSpec<T> = {
  title: string;
  addLabel: string;
  /** Resource path under /api/v1: GET list, GET/PUT/DELETE path/{id}, POST path. */
  path: string;
  /** Server-side paging (page, pageSize); otherwise one `items` list. */
  paged: boolean;
  columns: Column<T>[];
  /** Form titles per mode. */
  titles: { add: string; edit: string; view: string };
  saveConfirm: Omit<ConfirmOptions, 'actionLabel'>;
  /** Delete confirmation; none: the screen offers no Hapus. */
  remove?: Omit<ConfirmOptions, 'actionLabel'>;
};
