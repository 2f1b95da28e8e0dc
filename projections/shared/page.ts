import type { DataSource } from 'typeorm';

/** A page as the list routes ask for it (1-based). */
export interface PageRequest {
  page: number;
  pageSize: number;
}

export interface PageOf<T> {
  items: T[];
  /** rows across all pages */
  total: number;
}

/**
 * One page of `select` (a query without ORDER BY or LIMIT) in `orderBy`'s order, with the total
 * across pages, in one statement: the window count is taken before LIMIT. A page past the end has
 * no row to carry the count, so only then is it counted on its own.
 */
export async function pageOf<T extends object>(db: DataSource, select: string, params: unknown[], orderBy: string, request: PageRequest): Promise<PageOf<T>> {
  const limit = params.length + 1;
  const rows: (T & { total__: string | number })[] = await db.query(
    `SELECT q.*, COUNT(*) OVER () AS total__ FROM (${select}) q ORDER BY ${orderBy} LIMIT $${limit} OFFSET $${limit + 1}`,
    [...params, request.pageSize, (request.page - 1) * request.pageSize],
  );
  if (rows.length === 0) {
    if (request.page === 1) return { items: [], total: 0 };
    const [counted] = (await db.query(`SELECT COUNT(*) AS n FROM (${select}) q`, params)) as { n: string | number }[];
    return { items: [], total: Number(counted?.n ?? 0) };
  }
  const total = Number(rows[0]?.total__ ?? 0);
  return { items: rows.map(({ total__: _, ...row }) => row as unknown as T), total };
}
