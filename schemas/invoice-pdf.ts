import { Type, type Static } from '@sinclair/typebox';

/** GET …/invoices/{invoice_id}/pay-by-square: the code a banking app reads, and the payment it holds. */
export const PayBySquare = Type.Object(
  {
    code: Type.String({ description: 'the PAY by square text (base32hex of the LZMA-compressed payment): put it in a QR code (error correction M) as it is' }),
    payment: Type.Object({
      amount: Type.String({ description: 'the document\'s amount due, 2 decimals' }),
      currency: Type.String({ description: 'ISO 4217' }),
      iban: Type.String(),
      bic: Type.Union([Type.String(), Type.Null()], { description: 'the BIC of the company\'s account, when its profile has one' }),
      variable_symbol: Type.Union([Type.String(), Type.Null()], { description: 'the invoice\'s variable symbol, else the digits of its number (the last 10)' }),
      due_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
      payee: Type.String({ description: 'the supplier\'s name (the code carries it without diacritics, as banking apps want)' }),
    }, { additionalProperties: false, description: 'what the code pays, as decoded by a banking app' }),
  },
  { additionalProperties: false, $id: 'PayBySquare' },
);
export type PayBySquare = Static<typeof PayBySquare>;
