import fc from "fast-check";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { paiseToRupeesText } from "./money.ts";
import {
  columnOf,
  EXPORT_COLUMNS,
  type ExportProduct,
  type ExportVariant,
  newProductFromCsv,
  optionsOfVariants,
  parseProductsCsv,
  productsCsv,
  productsCsvFilename,
  spreadsheetCell,
  unspreadsheetCell,
  VARIANT_COLUMNS,
} from "./product-csv.ts";

const HEADER =
  "name,price,category,subcategory,description,discount,inStock,stockCount,isActive,badge,features,image URL";

function parseOk(text: string) {
  const r = parseProductsCsv(text);
  if (!r.ok) throw new Error(r.error);
  return r;
}

describe("products CSV import", () => {
  it("reads every documented column", () => {
    const r = parseOk(
      `${HEADER}\r\n"Moon Lamp",1499.50,3D Prints,Home Decor,"Warm, glowing",15,true,7,yes,New,USB-C | 15 cm |,https://files.example/moon.jpg\r\n`,
    );
    expect(r.failures).toEqual([]);
    expect(r.rows).toEqual([
      {
        row: 2,
        id: null,
        fields: {
          name: "Moon Lamp",
          slug: "moon-lamp",
          pricePaise: 149_950,
          category: "3D Prints",
          subcategory: "Home Decor",
          description: "Warm, glowing",
          discount: 15,
          inStock: true,
          stockCount: 7,
          isActive: true,
          badge: "New",
          features: ["USB-C", "15 cm"],
          image: "https://files.example/moon.jpg",
        },
      },
    ]);
  });

  it("lists bad rows with their spreadsheet row number and keeps the good ones", () => {
    const r = parseOk(
      [
        "name,price,discount,inStock,image url",
        "Good,10,,,",
        ",10,,,",
        "Bad price,abc,,,",
        "Too precise,1.999,,,",
        "Bad discount,10,140,,",
        "Bad flag,10,,maybe,",
        "Bad image,10,,,javascript:alert(1)",
        "Negative,-5,,,",
      ].join("\n"),
    );
    expect(r.rows.map((x) => x.fields.name)).toEqual(["Good"]);
    expect(r.failures.map((f) => [f.row, f.reason])).toEqual([
      [3, "missing name"],
      [4, 'Invalid price "abc": use rupees with at most 2 decimals.'],
      [5, 'Invalid price "1.999": use rupees with at most 2 decimals.'],
      [6, 'discount must be a number from 0 to 100, not "140".'],
      [7, 'inStock must be true or false, not "maybe".'],
      [8, 'image URL "javascript:alert(1)" must start with https://, http:// or /.'],
      [9, 'Invalid price "-5": use rupees with at most 2 decimals.'],
    ]);
  });

  it("an empty cell is 'not given'; a new product gets the defaults", () => {
    const r = parseOk("name,price,category,inStock\nKeychain,199,,\n");
    expect(r.rows[0].fields).toEqual({ name: "Keychain", slug: "keychain", pricePaise: 19_900 });
    expect(newProductFromCsv(r.rows[0].fields)).toMatchObject({
      description: "",
      category: "",
      inStock: true,
      isActive: true,
      discount: 0,
      stockCount: null,
      images: [],
      currency: "INR",
    });
  });

  it("needs a header naming name and price; refuses an empty file", () => {
    expect(parseProductsCsv("")).toMatchObject({ ok: false });
    expect(parseProductsCsv("title,cost\nA,1\n")).toMatchObject({ ok: false });
    expect(parseProductsCsv("\uFEFFName,Price\nA,1\n")).toMatchObject({ ok: true });
  });

  it("accepts ₹ and thousands separators in prices", () => {
    expect(parseOk('name,price\nA,"₹1,499.5"\n').rows[0].fields.pricePaise).toBe(149_950);
  });

  it("maps header spellings onto columns", () => {
    expect(columnOf("Image URL")).toBe("imageUrl");
    expect(columnOf("in_stock")).toBe("inStock");
    expect(columnOf("stock")).toBe("stockCount");
    expect(columnOf("\uFEFFid")).toBe("id");
    expect(columnOf("colour")).toBeNull();
  });
});

const product = (over: Partial<ExportProduct> = {}): ExportProduct => ({
  id: "0b8f5a4e-3c1d-4e2f-9a8b-7c6d5e4f3a2b",
  name: "Articulated Dragon",
  slug: "articulated-dragon",
  pricePaise: 89_900,
  category: "3D Prints",
  subcategory: "Toys",
  stockCount: null,
  inStock: true,
  isActive: false,
  rating: 4.7,
  reviewsCount: 128,
  createdAt: new Date("2024-03-02T10:15:00Z"),
  weightGrams: null,
  boxLengthCm: null,
  boxWidthCm: null,
  boxHeightCm: null,
  ...over,
});

describe("the parcel in the CSV", () => {
  it("exports the packed weight and box and reads them back; blank keeps, 0 or too large is refused", () => {
    const csv = productsCsv([
      product({ weightGrams: 420, boxLengthCm: 20, boxWidthCm: 15, boxHeightCm: 8 }),
    ]);
    expect(csv.split("\r\n")[1].endsWith(",420,20,15,8")).toBe(true);
    expect(parseOk(csv).rows[0].fields).toMatchObject({
      weightGrams: 420,
      boxLengthCm: 20,
      boxWidthCm: 15,
      boxHeightCm: 8,
    });
    const blank = parseOk("name,price,weight,box length\nA,10,,\n").rows[0].fields;
    expect(blank.weightGrams).toBeUndefined();
    expect(blank.boxLengthCm).toBeUndefined();
    const bad = parseProductsCsv("name,price,weightGrams,boxHeightCm\nA,10,0,5\nB,10,5,301\n");
    expect(bad.ok && bad.failures.map((f) => f.reason)).toEqual([
      'weightGrams must be a whole number from 1 to 100000, not "0".',
      'boxHeightCm must be a whole number from 1 to 300, not "301".',
    ]);
  });
});

describe("products CSV export", () => {
  it("writes the header and one row per product, prices in rupees", () => {
    const csv = productsCsv([product(), product({ stockCount: 3, pricePaise: 5 })]);
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe(EXPORT_COLUMNS.join(","));
    expect(lines[1]).toBe(
      "0b8f5a4e-3c1d-4e2f-9a8b-7c6d5e4f3a2b,Articulated Dragon,articulated-dragon,899.00,3D Prints,Toys,,true,false,4.7,128,2024-03-02T10:15:00.000Z,,,,",
    );
    expect(lines[2]).toContain(",0.05,");
    expect(lines[2]).toContain(",3,true,");
    expect(csv.endsWith("\r\n")).toBe(true);
  });

  it("guards against formula injection and round-trips through the import", () => {
    const evil = product({
      name: '=HYPERLINK("http://x","click")',
      category: "+cmd",
      subcategory: "@SUM(A1)",
    });
    const csv = productsCsv([evil]);
    const cells = Papa.parse<string[]>(csv.trim()).data[1];
    expect(cells[1]).toBe(`'=HYPERLINK("http://x","click")`);
    expect(cells[4]).toBe("'+cmd");
    expect(cells[5]).toBe("'@SUM(A1)");
    const back = parseOk(csv);
    expect(back.failures).toEqual([]);
    expect(back.rows[0]).toMatchObject({
      id: evil.id,
      fields: {
        name: evil.name,
        category: "+cmd",
        subcategory: "@SUM(A1)",
        pricePaise: 89_900,
        inStock: true,
        isActive: false,
        rating: 4.7,
        reviewsCount: 128,
        createdAt: evil.createdAt,
      },
    });
  });

  it("any exported product reads back with the same values", () => {
    const nameArb = fc
      .oneof(
        fc.string({ minLength: 1, maxLength: 30 }),
        fc.constantFrom("'=x", "-dash", "=1+1", 'a,"b"'),
      )
      .map((s) => s.replace(/\s+/g, " ").trim())
      .filter((s) => s !== "");
    fc.assert(
      fc.property(
        fc.record({
          name: nameArb,
          pricePaise: fc.integer({ min: 0, max: 2_000_000_000 }),
          category: fc.string({ maxLength: 20 }).map((s) => s.trim()),
          stockCount: fc.option(fc.integer({ min: 0, max: 100_000 })),
          inStock: fc.boolean(),
          isActive: fc.boolean(),
          rating: fc.integer({ min: 0, max: 50 }).map((n) => n / 10),
          reviewsCount: fc.integer({ min: 0, max: 10_000 }),
        }),
        (p) => {
          const row = parseOk(productsCsv([product(p)])).rows[0];
          expect(row.fields.name).toBe(p.name);
          expect(row.fields.pricePaise).toBe(p.pricePaise);
          expect(row.fields.category ?? "").toBe(p.category);
          expect(row.fields.stockCount ?? null).toBe(p.stockCount);
          expect(row.fields.inStock).toBe(p.inStock);
          expect(row.fields.isActive).toBe(p.isActive);
          expect(row.fields.rating).toBe(p.rating);
          expect(row.fields.reviewsCount).toBe(p.reviewsCount);
        },
      ),
    );
  });

  it("spreadsheet cells: prefixed on the way out, unprefixed on the way in", () => {
    for (const s of ["=1+1", "+1", "-1", "@x", "\tx", "\rx"]) {
      expect(spreadsheetCell(s)).toBe(`'${s}`);
      expect(unspreadsheetCell(spreadsheetCell(s))).toBe(s);
    }
    expect(spreadsheetCell("Dragon")).toBe("Dragon");
    expect(unspreadsheetCell("'quoted")).toBe("'quoted");
    expect(spreadsheetCell("'=x")).toBe("''=x");
    expect(unspreadsheetCell(spreadsheetCell("'=x"))).toBe("'=x");
  });

  it("formats paise and names the file by the India date", () => {
    expect(paiseToRupeesText(149_950)).toBe("1499.50");
    expect(paiseToRupeesText(7)).toBe("0.07");
    expect(productsCsvFilename(new Date("2026-11-21T20:00:00Z"))).toBe("products-2026-11-22.csv");
  });
});

describe("variants in the products CSV (issue 22)", () => {
  const product: ExportProduct = {
    id: "5f0c7d3e-8a8b-4c2a-9d47-0a6c1e7f2b11",
    name: "Dragon",
    slug: "dragon",
    pricePaise: 29_900,
    category: "3D Prints",
    subcategory: null,
    stockCount: 5,
    inStock: true,
    isActive: true,
    rating: 0,
    reviewsCount: 0,
    createdAt: new Date("2026-11-01T00:00:00.000Z"),
    weightGrams: null,
    boxLengthCm: null,
    boxWidthCm: null,
    boxHeightCm: null,
  };
  const variant = (colour: string, size: string, extra: Partial<ExportVariant> = {}) => ({
    options: [
      { name: "Colour", value: colour },
      { name: "Size", value: size },
    ],
    sku: `DRG-${colour}-${size}`,
    pricePaise: 29_900,
    originalPricePaise: null,
    stockCount: 2,
    isActive: true,
    ...extra,
  });

  it("a shop without options exports exactly the columns it always did", () => {
    const csv = productsCsv([product]);
    expect(csv.split("\r\n")[0]).toBe(EXPORT_COLUMNS.join(","));
    expect(csv).not.toContain("Option1");
  });

  it("one row per variant, grouped under the product; a product without options stays one row", () => {
    const csv = productsCsv([
      {
        ...product,
        variants: [
          variant("Red", "S"),
          variant("Red", "M", { pricePaise: 34_900, originalPricePaise: 39_900 }),
        ],
      },
      { ...product, id: "6f0c7d3e-8a8b-4c2a-9d47-0a6c1e7f2b11", name: "Vase", slug: "vase" },
    ]);
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toBe([...EXPORT_COLUMNS, ...VARIANT_COLUMNS].join(","));
    expect(lines).toHaveLength(4);
    expect(lines[2].endsWith("Colour,Red,Size,M,,,DRG-Red-M,349.00,399.00,2,true")).toBe(true);
    expect(lines[3].endsWith(",,,,,,,,,,,")).toBe(true);

    const parsed = parseProductsCsv(csv);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.failures).toEqual([]);
    expect(parsed.rows.map((r) => r.variant?.options.map((o) => o.value))).toEqual([
      ["Red", "S"],
      ["Red", "M"],
      undefined,
    ]);
    expect(parsed.rows[1].variant).toEqual({
      row: 3,
      options: [
        { name: "Colour", value: "Red" },
        { name: "Size", value: "M" },
      ],
      sku: "DRG-Red-M",
      pricePaise: 34_900,
      originalPricePaise: 39_900,
      stockCount: 2,
      isActive: true,
    });
  });

  it("reads the shop-platform spellings and refuses a half-named option, a price under ₹1, a bad SKU", () => {
    const header =
      "Name,Price,Option1 Name,Option1 Value,Variant SKU,Variant Price,Variant Compare At Price,Variant Inventory Qty";
    const parsed = parseProductsCsv(
      [
        header,
        "Owl,100,Size,S,OWL-S,100,120,4",
        "Owl,100,Size,,OWL-M,100,,4",
        "Owl,100,Size,L,OWL-L,0.50,,4",
        "Owl,100,Size,XL,bad sku,100,,4",
        "Owl,100,Size,XXL,OWL-XXL,100,90,4",
        "Cat,100,,,OWL-C,100,,",
      ].join("\n"),
    );
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.rows.map((r) => r.row)).toEqual([2]);
    expect(parsed.rows[0].variant).toMatchObject({ sku: "OWL-S", stockCount: 4 });
    expect(parsed.failures.map((f) => [f.row, f.reason])).toEqual([
      [3, "Option1 needs both a name and a value."],
      [4, "Variant Price must be at least ₹1."],
      [5, `Variant SKU "bad sku" may use letters, digits, '-', '_', '.' and '/'.`],
      [6, "Variant Compare At Price must be at least the Variant Price."],
      [7, "a variant's cells need its option values (Option1 Name and Value)."],
    ]);
  });

  it("a product's options come from its rows, values in first-seen order; disagreeing rows are refused", () => {
    const v = (row: number, pairs: [string, string][], sku?: string) => ({
      row,
      options: pairs.map(([name, value]) => ({ name, value })),
      ...(sku ? { sku } : {}),
    });
    expect(
      optionsOfVariants([
        v(2, [
          ["Colour", "Red"],
          ["Size", "M"],
        ]),
        v(3, [
          ["colour", "Blue"],
          ["size", "S"],
        ]),
        v(4, [
          ["Colour", "red"],
          ["Size", "S"],
        ]),
      ]),
    ).toEqual({
      ok: true,
      options: [
        { name: "Colour", values: ["Red", "Blue"] },
        { name: "Size", values: ["M", "S"] },
      ],
    });
    expect(optionsOfVariants([v(2, [["Colour", "Red"]]), v(3, [["Size", "S"]])])).toMatchObject({
      ok: false,
      reason: "row 3 names other options than row 2 (Colour)",
    });
    expect(optionsOfVariants([v(2, [["Colour", "Red"]]), v(3, [["Colour", "RED"]])])).toMatchObject(
      {
        ok: false,
        reason: "row 3 repeats the combination of an earlier row",
      },
    );
    expect(
      optionsOfVariants([v(2, [["Colour", "Red"]], "A-1"), v(3, [["Colour", "Blue"]], "a-1")]),
    ).toMatchObject({ ok: false, reason: "row 3 repeats the Variant SKU a-1" });
  });
});
