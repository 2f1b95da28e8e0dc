export { Uuid } from './uuid.ts';
export { ErrorBody, ValidationErrorBody, ValidationIssue } from './errors.ts';
export { Page, PageQuery, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, MAX_Q_LENGTH } from './page.ts';
