/** An id-keyed in-memory table: O(1) lookups, insertion-ordered iteration. */
export class Table<T> {
  readonly rows = new Map<number, T>();
  readonly idOf: (row: T) => number;

  constructor(idOf: (row: T) => number, rows: readonly T[] = []) {
    this.idOf = idOf;
    for (const row of rows) this.rows.set(idOf(row), row);
  }

  get(id: number | null | undefined): T | undefined {
    return id === null || id === undefined ? undefined : this.rows.get(id);
  }

  all(): T[] {
    return [...this.rows.values()];
  }

  filter(keep: (row: T) => boolean): T[] {
    const out: T[] = [];
    for (const row of this.rows.values()) if (keep(row)) out.push(row);
    return out;
  }

  find(match: (row: T) => boolean): T | undefined {
    for (const row of this.rows.values()) if (match(row)) return row;
    return undefined;
  }

  put(row: T): T {
    this.rows.set(this.idOf(row), row);
    return row;
  }

  delete(id: number): boolean {
    return this.rows.delete(id);
  }

  get size(): number {
    return this.rows.size;
  }
}
