export { Uuid } from './uuid.ts';
export { ErrorBody, InvoiceRulesBody, RateLimitedBody, ValidationErrorBody, ValidationIssue } from './errors.ts';
export { Page, PageQuery, PagingQuery, MAX_PAGE, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, MAX_Q_LENGTH } from './page.ts';
export { IsoDate, isIsoDate, MIN_YEAR, MAX_YEAR } from './date.ts';
