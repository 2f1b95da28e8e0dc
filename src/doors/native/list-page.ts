import type { PageOf } from '../../../projections/shared/page.ts';
import type { PagingQuery } from '../../../schemas/common/index.ts';

/** The spec's list envelope (`items`, `total`, `page`, `page_size`) around one page of rows. */
export const listPage = <Row, Item>(found: PageOf<Row>, query: PagingQuery, view: (row: Row) => Item) => ({
  items: found.items.map(view), total: found.total, page: query.page, page_size: query.page_size,
});

/** The read model's page for a route's query. */
export const pageRequest = (query: PagingQuery) => ({ page: query.page, pageSize: query.page_size });
