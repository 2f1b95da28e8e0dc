// @peculiar/x509 resolves its algorithms through tsyringe, which needs a Reflect metadata polyfill
// loaded first (its README: "Reflect Polyfill Required"). Everything here imports the library from
// this file, so the polyfill is always in place (reflect-metadata is a direct dependency for this).
import 'reflect-metadata';

export * from '@peculiar/x509';
