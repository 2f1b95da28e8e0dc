/**
 * eb:MessageId values (ebMS 3.0 core 5.2.2.1): an RFC 2822 msg-id without the angle brackets,
 * `id-left@id-right`, each a dot-atom-text (atext runs joined by single dots). The right side is
 * our certificate's CN (a Peppol seat id such as POP000123); anything outside atext, and stray
 * dots, are replaced so that an unusual CN or id still gives a valid msg-id.
 */

/** RFC 2822 3.2.4 atext, minus the characters other implementations' parsers trip over. */
const NOT_ATEXT = /[^A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+/g;

function dotAtom(value: string, fallback: string): string {
  const atoms = value.split('.').map((atom) => atom.replace(NOT_ATEXT, '-')).filter((atom) => atom !== '');
  return atoms.length > 0 ? atoms.join('.') : fallback;
}

export function ebmsMessageId(localPart: string, host: string | undefined): string {
  return `${dotAtom(localPart, 'message')}@${dotAtom(host ?? '', 'ap')}`;
}

/** Whether a value has the msg-id form above (for tests and checks). */
export const isEbmsMessageId = (value: string): boolean =>
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/.test(value);
