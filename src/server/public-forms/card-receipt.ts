import { createHash } from 'node:crypto';
import { PDFDocument, type PDFFont, rgb, StandardFonts } from 'pdf-lib';
import type { SignedCard } from './public-form-service.js';

export interface ReceiptOf {
  id: number;
  card: SignedCard;
  confirm_via: string | null;
  confirmed_at: string;
  card_id: number | null;
  form_title: string;
  campaign_name: string | null;
}

const PAGE = { width: 612, height: 792, margin: 54 };

/** The standard fonts encode WinAnsi only: other characters are shown as "?" rather than refusing the receipt. */
const printable = (text: string) => text.replace(/[^\x20-\x7e\u00a0-\u00ff\n]/g, '?');

/**
 * What the signer signed, as a fingerprint anyone can recompute from the card's recorded values: the SHA-256 of the
 * signed fields as JSON, in this order.
 */
export function fingerprintOf(card: SignedCard): string {
  const signed = [
    card.name,
    card.employer,
    card.job,
    card.email,
    card.phone,
    card.signature,
    card.consent_text,
    card.signed_at,
    card.ip,
    card.user_agent,
  ];
  return createHash('sha256').update(JSON.stringify(signed)).digest('hex');
}

/** Lines of at most `width` points in `font` at `size`. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of printable(text).split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/)) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) > width && line) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    lines.push(line);
  }
  return lines;
}

/** The PDF receipt of a confirmed card: the signer, the consent text as shown, the signature and its evidence. */
export async function cardReceipt(receipt: ReceiptOf): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Authorization card receipt ${receipt.id}`);
  pdf.setCreationDate(new Date(receipt.confirmed_at));
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const signatureFont = await pdf.embedFont(StandardFonts.TimesRomanItalic);
  let page = pdf.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  const write = (text: string, font: PDFFont = regular, size = 11, gap = 4) => {
    for (const line of wrap(text, font, size, width)) {
      if (y - size < PAGE.margin) {
        page = pdf.addPage([PAGE.width, PAGE.height]);
        y = PAGE.height - PAGE.margin;
      }
      y -= size;
      page.drawText(line, { x: PAGE.margin, y, size, font, color: rgb(0, 0, 0) });
      y -= gap;
    }
  };
  const { card } = receipt;
  write('Union authorization card: receipt', bold, 18, 10);
  write(
    `${receipt.form_title}${receipt.campaign_name ? ` (campaign: ${receipt.campaign_name})` : ''}`,
    regular,
    12,
    12,
  );
  for (const [label, value] of [
    ['Name', card.name],
    ['Employer', card.employer],
    ['Job', card.job],
    ['Email', card.email ?? '-'],
    ['Phone', card.phone ?? '-'],
  ])
    write(`${label}: ${value}`);
  y -= 8;
  write('Consent text shown and agreed to:', bold);
  write(card.consent_text, regular, 10, 3);
  y -= 8;
  write('Signature (typed):', bold);
  write(card.signature, signatureFont, 20, 10);
  write(`Signed at ${card.signed_at} (UTC) from address ${card.ip}`, regular, 9, 3);
  write(`Browser: ${card.user_agent ?? 'not sent'}`, regular, 9, 3);
  write(
    `Confirmed at ${receipt.confirmed_at} (UTC) by ${receipt.confirm_via === 'sms' ? 'a code texted to the phone' : 'a link emailed to the address'} above.`,
    regular,
    9,
    3,
  );
  write(`Submission ${receipt.id}${receipt.card_id ? `, card ${receipt.card_id}` : ''}.`, regular, 9, 3);
  write(`Fingerprint (SHA-256 of the signed values): ${fingerprintOf(card)}`, regular, 8, 3);
  return pdf.save();
}
