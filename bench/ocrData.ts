import { statementPicture } from '../test/helpers/statements/pictures.ts';

/**
 * A phone-size (1170×2532, an iPhone's) banking app screenshot: a dark theme, date headings and
 * 24 rows of transactions over the whole screen, the picture the OCR quality bar is stated for.
 * Each `variant` is another picture (its title differs), so no read is spared as read before.
 */
export function phoneScreenshot(variant = 0): Promise<Buffer> {
  const lines = [`Movimientos ${variant}`];
  const shops = ['Netflix', 'Mercadona', 'Spotify', 'Gasolinera Repsol', 'Amazon', 'Farmacia'];
  for (let day = 3; day <= 10; day++) {
    lines.push(`${day} de noviembre de 2025`);
    for (let i = 0; i < 3; i++) {
      const cents = 199 + ((day * 37 + i * 131) % 9000);
      lines.push(
        `${shops[(day + i) % shops.length] ?? ''}  -${(cents / 100).toFixed(2).replace('.', ',')} €`,
      );
    }
  }
  return statementPicture(lines, { dark: true, width: 1170, height: 2532, fontSize: 44 });
}
