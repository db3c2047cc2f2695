import { crc32 } from "node:zlib";

// Small files of every type an auction document may be, with the bytes real ones start with, and a
// few that only pretend to be one. Built here so the tests carry no binary fixtures.

/** A ZIP archive (stored, not compressed) holding these entries. */
export function zipArchive(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const nameBytes = Buffer.from(name, "utf8");
    const content = Buffer.from(text, "utf8");
    const checksum = crc32(content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(checksum, 14);
    local.writeUInt32LE(content.length, 18);
    local.writeUInt32LE(content.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(checksum, 16);
    central.writeUInt32LE(content.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, content);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + content.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** An OLE2 compound file's header and a directory sector naming these streams. */
function oleFile(...streams: string[]): Buffer {
  const header = Buffer.alloc(512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header);
  const directory = Buffer.alloc(512);
  for (const [index, name] of ["Root Entry", ...streams].entries()) {
    Buffer.from(name, "utf16le").copy(directory, index * 128);
    directory.writeUInt16LE((name.length + 1) * 2, index * 128 + 64);
  }
  return Buffer.concat([header, directory]);
}

const CONTENT_TYPES =
  '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';

export const PDF = Buffer.from(
  [
    "%PDF-1.4",
    "1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj",
    "2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj",
    "3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]>> endobj",
    "trailer <</Root 1 0 R>>",
    "%%EOF",
    "",
  ].join("\n"),
  "latin1",
);
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);
export const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from("JFIF\0", "latin1"),
  Buffer.from([0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]),
]);
export const DOCX = zipArchive({
  "[Content_Types].xml": CONTENT_TYPES,
  "word/document.xml": '<?xml version="1.0"?><w:document/>',
});
export const XLSX = zipArchive({
  "[Content_Types].xml": CONTENT_TYPES,
  "xl/workbook.xml": '<?xml version="1.0"?><workbook/>',
});
export const ZIP = zipArchive({ "scope/readme.txt": "Scope of work" });
export const DOC = oleFile("WordDocument", "\u0001CompObj");
export const XLS = oleFile("Workbook", "\u0005SummaryInformation");
export const CSV = Buffer.from("item,quantity\nGravel (m³),40\n", "utf8");
export const TXT = Buffer.from("Site access from the north gate only.\n", "utf8");
/** A Windows program: "MZ", then bytes with NULs. */
export const EXE = Buffer.concat([
  Buffer.from("MZ", "latin1"),
  Buffer.alloc(62),
  Buffer.from("This program cannot be run in DOS mode."),
]);

/** Every allowed type: a name and real content. */
export const ALLOWED_SAMPLES: { name: string; bytes: Buffer; contentType: string }[] = [
  { name: "Scope of work.pdf", bytes: PDF, contentType: "application/pdf" },
  { name: "Specs.doc", bytes: DOC, contentType: "application/msword" },
  {
    name: "Specs.docx",
    bytes: DOCX,
    contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  },
  { name: "Quantities.xls", bytes: XLS, contentType: "application/vnd.ms-excel" },
  {
    name: "Quantities.xlsx",
    bytes: XLSX,
    contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  },
  { name: "Items.csv", bytes: CSV, contentType: "text/csv; charset=utf-8" },
  { name: "Notes.txt", bytes: TXT, contentType: "text/plain; charset=utf-8" },
  { name: "Site map.png", bytes: PNG, contentType: "image/png" },
  { name: "Lease road.jpg", bytes: JPEG, contentType: "image/jpeg" },
  { name: "Gate photo.JPEG", bytes: JPEG, contentType: "image/jpeg" },
  { name: "Drawings.zip", bytes: ZIP, contentType: "application/zip" },
];
