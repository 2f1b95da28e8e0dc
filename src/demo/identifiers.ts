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

const BANKS = ['0900', '1100', '0200', '7500', '5600'];

/** A complete, valid set of Slovak company identifiers for a sandbox company. */
export function randomSandboxIdentity() {
  const dic = randomDic();
  const vat_id = `SK${dic}`;
  return {
    vat_id,
    ico: randomIco(),
    dic,
    peppol_id: sandboxPeppolId(vat_id),
    iban: skIban(BANKS[randomInt(BANKS.length)] ?? '1100', digits(10)),
  };
}
