/** The API version is the path prefix (spec: Versioning). */
export const API_PREFIX = '/api/v1';
