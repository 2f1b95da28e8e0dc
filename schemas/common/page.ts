import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** Limits from the spec: page_size 1-100 (default 20), q at most 200 characters. */
export const MAX_PAGE_SIZE = 100;
/** Deepest page a list serves (100 million rows at the largest page_size); beyond it a 422, never a huge OFFSET. */
export const MAX_PAGE = 1_000_000;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_Q_LENGTH = 200;

/**
 * Query of every list route. Defaults are filled in by validation, so handlers always get
 * page and page_size; a page_size above the maximum is a 422, not silently clamped.
 */
export const PageQuery = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: `1-based page number, at most ${MAX_PAGE}` }),
  page_size: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }),
  q: Type.Optional(Type.String({ maxLength: MAX_Q_LENGTH, description: 'free-text search' })),
  sort: Type.Optional(Type.String({ description: 'field to sort by; prefix with - for descending' })),
});
export type PageQuery = Static<typeof PageQuery>;

/** Query of a list with no search or sort of its own (keys, clients, logs): only the page. */
export const PagingQuery = Type.Object({
  page: PageQuery.properties.page,
  page_size: PageQuery.properties.page_size,
});
export type PagingQuery = Static<typeof PagingQuery>;

/** List envelope: one page of items plus the total count across all pages. */
export const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    items: Type.Array(item),
    total: Type.Integer({ minimum: 0 }),
    page: Type.Integer({ minimum: 1, maximum: MAX_PAGE }),
    page_size: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE }),
  });
