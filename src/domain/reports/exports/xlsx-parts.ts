import type { Cell } from './export-format.js';

/**
 * The XML parts of a minimal SpreadsheetML workbook (ECMA-376 part 1): content types, relationships, the
 * workbook with its sheet list, one default style, and worksheets whose strings are inline (`t="inlineStr"`),
 * so no shared-string table has to be held until the end. No cell ever has a formula element: text that looks
 * like a formula ("=SUM(A1)", "+1", "@x") is written as the text it is.
 */

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const WORKSHEET_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml';

/** Excel's limit of characters per cell. */
export const XLSX_MAX_CELL_CHARS = 32_767;

function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : '&quot;'));
}

/**
 * Text as a cell holds it (ST_Xstring): control characters, which XML 1.0 cannot carry, are written as Excel's
 * `_xHHHH_` escapes, and text that already looks like such an escape gets its underscore escaped, so Excel
 * reads back the stored value (exceljs's writer dropped controls, and Excel showed "_x0041_" as "A"). CR is
 * left as it is: XML readers turn CRLF into LF, the line break every reader shows, whereas `_x000D_` appears
 * literally in readers that do not decode escapes (exceljs's, for one). A lone surrogate (not text)
 * becomes U+FFFD. Longer text than a cell holds is cut at the limit, never between a surrogate pair's halves.
 */
export function cellText(value: string): string {
  // Most cells (SKUs, names, timestamps) need none of the rewrites below: one scan finds that out.
  // eslint-disable-next-line no-control-regex -- control characters are among what the rewrites handle
  if (value.length <= XLSX_MAX_CELL_CHARS && !/[<>&"_\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/.test(value)) return value;
  let text = value;
  if (text.length > XLSX_MAX_CELL_CHARS) {
    const end = /[\uD800-\uDBFF]/.test(text.charAt(XLSX_MAX_CELL_CHARS - 1)) ? XLSX_MAX_CELL_CHARS - 1 : XLSX_MAX_CELL_CHARS;
    text = text.slice(0, end);
  }
  text = text
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/_(x[0-9A-Fa-f]{4}_)/g, '_x005F_$1')
    // eslint-disable-next-line no-control-regex -- these control characters are exactly what must be escaped
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`);
  return escapeXml(text);
}

/** "A", "B", …, "Z", "AA", … for a 0-based column index. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function cellXml(ref: string, cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'boolean') return `<c r="${ref}" t="b"><v>${cell ? 1 : 0}</v></c>`;
  // A number that is not finite has no spreadsheet value: it is kept as the text it prints as.
  if (typeof cell === 'number' && Number.isFinite(cell)) return `<c r="${ref}"><v>${cell}</v></c>`;
  return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${cellText(String(cell))}</t></is></c>`;
}

/** One `<row>`; blank cells are left out (each cell names its own reference). */
export function rowXml(rowNumber: number, cells: readonly Cell[], columns: readonly string[]): string {
  let xml = `<row r="${rowNumber}">`;
  for (let i = 0; i < cells.length; i++) xml += cellXml(`${columns[i] ?? columnName(i)}${rowNumber}`, cells[i]!);
  return `${xml}</row>`;
}

export const SHEET_START = `${XML_HEAD}<worksheet xmlns="${MAIN_NS}"><sheetData>`;
export const SHEET_END = '</sheetData></worksheet>';

export const sheetPath = (index: number) => `xl/worksheets/sheet${index}.xml`;

export function contentTypesXml(sheets: number): string {
  const overrides = Array.from({ length: sheets }, (_, i) => `<Override PartName="/${sheetPath(i + 1)}" ContentType="${WORKSHEET_TYPE}"/>`).join('');
  return (
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
    `${overrides}</Types>`
  );
}

export const ROOT_RELS_XML = `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

/** Sheet i (1-based) is relationship rId<i>; the styles part comes after the sheets. */
export function workbookXml(sheetNames: readonly string[]): string {
  const sheets = sheetNames.map((name, i) => `<sheet name="${escapeXml(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
  return `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${sheets}</sheets></workbook>`;
}

export function workbookRelsXml(sheets: number): string {
  const rels = Array.from({ length: sheets }, (_, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('');
  return `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}">${rels}<Relationship Id="rId${sheets + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`;
}

/** The one style every cell uses (Excel's "Normal"); some readers refuse a workbook without a styles part. */
export const STYLES_XML =
  `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
  '<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';
