import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { parseModel } from "./index.ts";
import { invalidFileMessage, reasons, TOO_MANY_TRIANGLES_MESSAGE } from "./messages.ts";
import { CONTENT_TYPES_XML, RELS_XML } from "./testing/shapes.ts";

/* Hostile uploads found in review: small files that would unpack or grow without bound. */

describe("resource limits", () => {
  it("a small 3MF that unpacks to far more than real models do is refused", () => {
    const bomb = zipSync({
      "[Content_Types].xml": new TextEncoder().encode(CONTENT_TYPES_XML),
      "_rels/.rels": new TextEncoder().encode(RELS_XML),
      "3D/3dmodel.model": new Uint8Array(40 * 1024 * 1024),
    });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(() => parseModel(bomb, "bomb.3mf")).toThrow(invalidFileMessage("3mf", reasons.tooBig));
  });

  it("one OBJ polygon with more corners than the triangle limit stops at the limit", () => {
    const vertices = Array.from({ length: 30 }, (_, i) => `v ${Math.cos(i)} ${Math.sin(i)} 0`);
    const face = `f ${Array.from({ length: 30 }, (_, i) => i + 1).join(" ")}`;
    const obj = new TextEncoder().encode(`${vertices.join("\n")}\n${face}\n`);
    expect(() => parseModel(obj, "fan.obj", { maxTriangles: 10 })).toThrow(
      TOO_MANY_TRIANGLES_MESSAGE,
    );
  });
});
