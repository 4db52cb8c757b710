/**
 * DataTables-style server-side tables, shared by every table route. Parameters come from the JSON
 * body (POST) or the query string (GET): draw, start, length, order ([{column, dir}] or
 * {column, dir}, also order[0][column] query keys), search ({value} or a string).
 */
import type { FastifyRequest } from 'fastify';

export type Column<T> = {
  /** Name accepted in `order[].column` (the index in the column list is accepted too). */
  name: string;
  value: (row: T) => string | number | null;
};

export type TableSpec<T> = {
  columns: Column<T>[];
  /** Values searched (case-insensitive substring) by `search`. */
  searchable: (row: T) => (string | number | null | undefined)[];
  defaultOrder: { column: string; dir: 'asc' | 'desc' };
};

export type TableParams = {
  draw: number;
  start: number;
  length: number;
  search: string;
  order: { column: string | number; dir: 'asc' | 'desc' }[];
};

export type TableReply<R> = {
  code: 1;
  message: string[];
  draw: number;
  recordsTotal: number;
  recordsFiltered: number;
  data: R[];
};

type Bag = Record<string, unknown>;

/** Body and query merged (body wins); query keys like `search[value]` and `order[0][column]` understood. */
export function requestBag(request: FastifyRequest): Bag {
  const query = (request.query ?? {}) as Bag;
  const body = request.body && typeof request.body === 'object' ? (request.body as Bag) : {};
  return { ...query, ...body };
}

const int = (value: unknown, fallback: number) => {
  const n = Number(value);
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
};

export function tableParams(bag: Bag): TableParams {
  let search = '';
  const s = bag.search;
  if (typeof s === 'string') search = s;
  else if (s && typeof s === 'object' && typeof (s as Bag).value === 'string')
    search = (s as Bag).value as string;
  else if (typeof bag['search[value]'] === 'string') search = bag['search[value]'] as string;

  const order: TableParams['order'] = [];
  const rawOrder = bag.order;
  const list = Array.isArray(rawOrder)
    ? rawOrder
    : rawOrder && typeof rawOrder === 'object'
      ? [rawOrder]
      : [];
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const column = (item as Bag).column;
    if (typeof column !== 'number' && typeof column !== 'string') continue;
    order.push({ column, dir: String((item as Bag).dir).toLowerCase() === 'desc' ? 'desc' : 'asc' });
  }
  if (!order.length && bag['order[0][column]'] !== undefined) {
    order.push({
      column: String(bag['order[0][column]']),
      dir: String(bag['order[0][dir]']).toLowerCase() === 'desc' ? 'desc' : 'asc',
    });
  }
  const length = int(bag.length, 10);
  return {
    draw: int(bag.draw, 1),
    start: Math.max(0, int(bag.start, 0)),
    length: length < 0 ? Number.POSITIVE_INFINITY : Math.min(length, 1000),
    search: search.trim().toLowerCase(),
    order,
  };
}

function compare(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), 'id');
}

/** Searches, orders and pages `rows`, then presents the page. */
export function table<T, R>(
  rows: T[],
  params: TableParams,
  spec: TableSpec<T>,
  present: (row: T) => R,
  /** Rows before any filtering (DataTables' recordsTotal); defaults to rows.length. */
  total = rows.length,
): TableReply<R> {
  const filtered = params.search
    ? rows.filter((row) =>
        spec
          .searchable(row)
          .some((v) => v !== null && v !== undefined && String(v).toLowerCase().includes(params.search)),
      )
    : rows;
  const orders = (params.order.length ? params.order : [spec.defaultOrder])
    .map((o) => {
      const column =
        typeof o.column === 'number' || /^\d+$/.test(o.column)
          ? spec.columns[Number(o.column)]
          : spec.columns.find((c) => c.name.toLowerCase() === String(o.column).toLowerCase());
      return column ? { column, sign: o.dir === 'desc' ? -1 : 1 } : null;
    })
    .filter((o) => o !== null);
  const sorted = orders.length
    ? [...filtered].sort((a, b) => {
        for (const { column, sign } of orders) {
          const c = compare(column.value(a), column.value(b));
          if (c) return c * sign;
        }
        return 0;
      })
    : filtered;
  const page = sorted.slice(params.start, params.start + params.length);
  return {
    code: 1,
    message: [],
    draw: params.draw,
    recordsTotal: total,
    recordsFiltered: filtered.length,
    data: page.map(present),
  };
}
