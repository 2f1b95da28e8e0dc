/**
 * The generated `paths` with the header parameters the clients send themselves made optional to
 * the caller, whatever the document says of them: Idempotency-Key (a UUID unless given) and
 * X-Peppol-Participant-Id (the SAPI client's participant). Anything else a document requires
 * (If-Match) stays required.
 */
type Filled = 'Idempotency-Key' | 'X-Peppol-Participant-Id';

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

type RelaxedHeader<H> = Omit<H, Filled> & Partial<Pick<H, Extract<keyof H, Filled>>>;

type HeaderPart<P> = 'header' extends keyof P
  ? [NonNullable<P['header' & keyof P]>] extends [never]
    ? Pick<P, 'header' & keyof P>
    : RequiredKeys<RelaxedHeader<NonNullable<P['header' & keyof P]>>> extends never
      ? { header?: RelaxedHeader<NonNullable<P['header' & keyof P]>> }
      : { header: RelaxedHeader<NonNullable<P['header' & keyof P]>> }
  : unknown;

type RelaxedParameters<P> = Omit<P, 'header'> & HeaderPart<P>;

type RelaxedOperation<O> = O extends { parameters: infer P; responses: unknown } ? Omit<O, 'parameters'> & { parameters: RelaxedParameters<P> } : O;

export type Relaxed<Paths> = { [Path in keyof Paths]: { [Method in keyof Paths[Path]]: RelaxedOperation<Paths[Path][Method]> } };
