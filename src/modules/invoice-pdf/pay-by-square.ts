import { CurrencyCode, encode, PaymentOptions, type DataModel } from 'bysquare/pay';
import QRCode from 'qrcode';
import { ValidationError } from 'bysquare';
import { paymentRequest, type PayableDocument, type PaymentRequest, type PaymentRequestRefusal } from '../../../commands/exports/pay-by-square.ts';

/** The beneficiary fields' and the note's limits in the PAY by square standard (Table 15). */
const NAME_MAX = 70;
const NOTE_MAX = 140;

/** PAY by square's payment model of a payment request (commands/exports/pay-by-square.ts). */
export function payBySquareModel(payment: PaymentRequest): DataModel {
  return {
    payments: [{
      type: PaymentOptions.PaymentOrder,
      // the standard's model takes a number: an amount of 2 decimals below 10^15 is exact in a double
      amount: Number(payment.amount),
      currencyCode: payment.currency as keyof typeof CurrencyCode,
      bankAccounts: [{ iban: payment.iban, ...(payment.bic ? { bic: payment.bic } : {}) }],
      ...(payment.variable_symbol ? { variableSymbol: payment.variable_symbol } : {}),
      ...(payment.due_date ? { paymentDueDate: payment.due_date.replace(/-/g, '') } : {}),
      paymentNote: payment.note.slice(0, NOTE_MAX),
      beneficiary: {
        name: payment.payee.name.slice(0, NAME_MAX),
        ...(payment.payee.street ? { street: payment.payee.street.slice(0, NAME_MAX) } : {}),
        ...(payment.payee.city ? { city: payment.payee.city.slice(0, NAME_MAX) } : {}),
      },
    }],
  };
}

/**
 * The code's text, as a banking app reads it from the QR: bysquare's encoding (LZMA, base32hex),
 * diacritics removed as the library does by default (many banking apps refuse them).
 */
export const encodePayBySquare = (payment: PaymentRequest): string => encode(payBySquareModel(payment));

/**
 * The QR symbol of a code as its modules (true: dark), row by row, for drawing as vector squares.
 * Error correction M, as PAY by square codes are printed; the quiet zone is the drawer's.
 */
export function qrModules(text: string): boolean[][] {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  return Array.from({ length: modules.size }, (_, row) => Array.from({ length: modules.size }, (_, col) => modules.get(row, col) === 1));
}

/** A document's PAY by square code, or why it has none (the words say it on the PDF). */
export type PayBySquareCode =
  | { ok: true; code: string; payment: PaymentRequest }
  | ({ ok: false } & PaymentRequestRefusal);

/**
 * The code of a document, when it asks for a transfer. An account the standard refuses (an IBAN
 * or BIC bysquare's validation rejects, which a received invoice may carry) is no account for it.
 */
export function payBySquareOf(document: PayableDocument): PayBySquareCode {
  const decided = paymentRequest(document);
  return decided.ok ? codeOf(decided.payment) : decided;
}

/** A payment request's code, or no account when bysquare's validation refuses its IBAN or BIC. */
export function codeOf(payment: PaymentRequest): PayBySquareCode {
  try {
    return { ok: true, code: encodePayBySquare(payment), payment };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return { ok: false, code: 'pay_by_square_no_account', message: `the account cannot be paid by PAY by square: ${error.message} (${error.path})`, words: 'IBAN alebo BIC dokladu nie je platný' };
  }
}
