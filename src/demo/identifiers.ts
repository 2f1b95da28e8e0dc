import { randomInt } from 'node:crypto';
import { icoCheckDigit, sandboxPeppolId, skIban } from '../../commands/shared/slovak-identifiers.ts';

const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');

/** A random DIČ of a legal person (starts with 20) that is divisible by 11, so SK + it is a valid IČ DPH. */
function randomDic(): string {
  for (;;) {
    const stem = `20${digits(7)}`;
    const last = (11 - (Number(BigInt(stem) * 10n % 11n))) % 11;
    if (last < 10) return `${stem}${last}`;
  }
}

/** A random IČO with a correct check digit. */
function randomIco(): string {
  const stem = `${randomInt(3, 6)}${digits(6)}`;
  return `${stem}${icoCheckDigit(stem)}`;
}

/** Slovak banks by their code in an IBAN, with their BIC (the NBS register's). */
const BANKS = [
  { code: '0900', bic: 'GIBASKBX' },
  { code: '1100', bic: 'TATRSKBX' },
  { code: '0200', bic: 'SUBASKBX' },
  { code: '7500', bic: 'CEKOSKBX' },
  { code: '5600', bic: 'KOMASK2X' },
];

/** A complete, valid set of Slovak company identifiers for a sandbox company. */
export function randomSandboxIdentity() {
  const dic = randomDic();
  const vat_id = `SK${dic}`;
  return {
    vat_id,
    ico: randomIco(),
    dic,
    peppol_id: sandboxPeppolId(vat_id),
    iban: skIban(BANKS[randomInt(BANKS.length)]?.code ?? '1100', digits(10)),
  };
}

/** The BIC of a Slovak IBAN's bank (its code is the IBAN's 5th to 8th character), or '' for a bank not listed. */
export const bicOf = (iban: string): string => BANKS.find((bank) => bank.code === iban.slice(4, 8))?.bic ?? '';
