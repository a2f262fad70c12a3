// Test support: how many GSM 03.38 characters a text is (the extension table's count two), or
// null when it holds a character outside GSM-7 and so would go as a UCS-2 text of 70 a segment.
const BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const EXTENDED = '^{}\\[~]|€\f';

export function gsm7Length(text: string): number | null {
  let length = 0;
  for (const char of text) {
    if (BASIC.includes(char)) length += 1;
    else if (EXTENDED.includes(char)) length += 2;
    else return null;
  }
  return length;
}
