import { describe, expect, it } from "vitest";
import { csvCell, csvLine, csvResponse, csvText } from "./csv";

describe("CSV files", () => {
  it("quote as RFC 4180 asks", () => {
    expect(csvCell("Roughneck Services Ltd.")).toBe("Roughneck Services Ltd.");
    expect(csvCell("Smith, Jones & Co")).toBe('"Smith, Jones & Co"');
    expect(csvCell('The "Best" Rigs')).toBe('"The ""Best"" Rigs"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
  });

  it("defuse cells a spreadsheet would run as a formula", () => {
    expect(csvCell('=HYPERLINK("http://evil.example")')).toBe('"\'=HYPERLINK(""http://evil.example"")"');
    expect(csvCell("+1-403-555-0100")).toBe("'+1-403-555-0100");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tTabbed")).toBe("'\tTabbed");
    expect(csvCell("\rReturn")).toBe('"\'\rReturn"');
    expect(csvCell("Ltd = fine")).toBe("Ltd = fine");
  });

  it("end every line with CRLF, the header first", () => {
    expect(csvLine(["a", "b, c"])).toBe('a,"b, c"\r\n');
    expect(
      csvText(
        ["id", "name"],
        [
          ["1", "=x"],
          ["2", ""],
        ],
      ),
    ).toBe("id,name\r\n1,'=x\r\n2,\r\n");
    expect(csvText(["id"], [])).toBe("id\r\n");
  });

  it("are sent as a download that is never cached", async () => {
    const response = csvResponse("id\r\n", "auction-7-bids.csv");
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="auction-7-bids.csv"');
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(await response.text()).toBe("id\r\n");
  });
});
