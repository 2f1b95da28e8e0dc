import type { Ajv } from 'ajv';
import type { TObject, TSchema } from '@sinclair/typebox';
import type { ValidationIssue } from '../../../schemas/common/errors.ts';
import { toIssues, type LocRoot } from './issues.ts';
import type { Route } from './route.ts';

/** Validates (and, for strings, coerces and fills defaults in) `data` in place; [] means valid. */
export type Check = (data: unknown) => ValidationIssue[];

const pass: Check = () => [];

function compile(ajv: Ajv, root: LocRoot, schema: TSchema | undefined): Check {
  if (!schema) return pass;
  const validate = ajv.compile(schema);
  return (data) => (validate(data) ? [] : toIssues(root, validate.errors ?? [], data));
}

export interface RouteValidators {
  params: Check;
  query: Check;
  body: Check;
  /** query keys the route declares; others are dropped before validation (unknown ones are ignored) */
  queryKeys: readonly string[];
}

/** Compiles a route's schemas once, at startup, so a broken schema fails the boot, not a request. */
export function compileRoute(route: Route, ajvs: { strings: Ajv; body: Ajv }): RouteValidators {
  const query: TObject | undefined = route.query;
  return {
    params: compile(ajvs.strings, 'path', route.params),
    query: compile(ajvs.strings, 'query', route.query),
    body: compile(ajvs.body, 'body', route.body),
    queryKeys: query ? Object.keys(query.properties) : [],
  };
}
