// Builds a valid Slovak invoice with N lines (alternating 23 % and 5 %), for benchmarks and
// scaling tests. Amounts are integers of cents, so totals are exact.

function money(cents: number): string {
  return (cents / 100).toFixed(2);
}

export function generateInvoice(lines: number): string {
  const rates = [23, 5];
  const base: Record<number, number> = { 23: 0, 5: 0 };
  const items: string[] = [];
  for (let i = 1; i <= lines; i++) {
    const rate = rates[i % 2] ?? 23;
    const qty = (i % 7) + 1;
    const price = 1000 + (i % 13) * 25; // cents
    const net = qty * price;
    base[rate] = (base[rate] ?? 0) + net;
    items.push(`  <cac:InvoiceLine>
    <cbc:ID>${i}</cbc:ID>
    <cbc:InvoicedQuantity unitCode="C62">${qty}</cbc:InvoicedQuantity>
    <cbc:LineExtensionAmount currencyID="EUR">${money(net)}</cbc:LineExtensionAmount>
    <cac:Item>
      <cbc:Name>Položka ${i}</cbc:Name>
      <cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>${rate}</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory>
    </cac:Item>
    <cac:Price><cbc:PriceAmount currencyID="EUR">${money(price)}</cbc:PriceAmount></cac:Price>
  </cac:InvoiceLine>`);
  }
  const used = rates.filter((r) => (base[r] ?? 0) > 0);
  const vat = (r: number): number => Math.round(((base[r] ?? 0) * r) / 100);
  const net = used.reduce((s, r) => s + (base[r] ?? 0), 0);
  const tax = used.reduce((s, r) => s + vat(r), 0);
  const subtotals = used
    .map(
      (r) => `    <cac:TaxSubtotal>
      <cbc:TaxableAmount currencyID="EUR">${money(base[r] ?? 0)}</cbc:TaxableAmount>
      <cbc:TaxAmount currencyID="EUR">${money(vat(r))}</cbc:TaxAmount>
      <cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>${r}</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory>
    </cac:TaxSubtotal>`,
    )
    .join('\n');
  const party = (endpoint: string, vatId: string, name: string, ico: string, city: string): string => `<cac:Party>
      <cbc:EndpointID schemeID="0245">${endpoint}</cbc:EndpointID>
      <cac:PostalAddress><cbc:StreetName>Hlavná 1</cbc:StreetName><cbc:CityName>${city}</cbc:CityName><cbc:PostalZone>81101</cbc:PostalZone><cac:Country><cbc:IdentificationCode>SK</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
      <cac:PartyTaxScheme><cbc:CompanyID>${vatId}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
      <cac:PartyLegalEntity><cbc:RegistrationName>${name}</cbc:RegistrationName><cbc:CompanyID>${ico}</cbc:CompanyID></cac:PartyLegalEntity>
    </cac:Party>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>
  <cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>
  <cbc:ID>GEN-${lines}</cbc:ID>
  <cbc:IssueDate>2026-11-02</cbc:IssueDate>
  <cbc:DueDate>2026-11-16</cbc:DueDate>
  <cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cbc:BuyerReference>BENCH</cbc:BuyerReference>
  <cac:AccountingSupplierParty>${party('2020123457', 'SK2020123457', 'Dodávateľ s.r.o.', '12345679', 'Bratislava')}</cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty>${party('2120456789', 'SK2120456789', 'Odberateľ a.s.', '36543217', 'Košice')}</cac:AccountingCustomerParty>
  <cac:PaymentMeans><cbc:PaymentMeansCode>30</cbc:PaymentMeansCode><cbc:PaymentID>${lines}</cbc:PaymentID><cac:PayeeFinancialAccount><cbc:ID>SK9509000000000123456789</cbc:ID></cac:PayeeFinancialAccount></cac:PaymentMeans>
  <cac:TaxTotal>
    <cbc:TaxAmount currencyID="EUR">${money(tax)}</cbc:TaxAmount>
${subtotals}
  </cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="EUR">${money(net)}</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="EUR">${money(net)}</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="EUR">${money(net + tax)}</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount currencyID="EUR">${money(net + tax)}</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
${items.join('\n')}
</Invoice>
`;
}

/**
 * A generated invoice with `notes` extra `cbc:Note` elements (about 22 bytes each): the shape of the
 * hostile document that took a minute of CPU before the element bound. Built in memory, never committed.
 */
export function invoiceWithNotes(notes: number, lines = 1): string {
  const extra = '<cbc:Note>x</cbc:Note>'.repeat(notes);
  return generateInvoice(lines).replace('</cbc:InvoiceTypeCode>', `</cbc:InvoiceTypeCode>\n  ${extra}`);
}
