/**
 * Customer-facing texts for model files that cannot be used. Every part of the quote engine (the
 * browser worker, the server and the tests) shows these texts verbatim.
 */
import { ModelError, type ModelFormat } from "./types.ts";

export const UNSUPPORTED_FILE_MESSAGE = "Please upload an STL, OBJ, 3MF or PLY file.";
export const FILE_TOO_LARGE_MESSAGE =
  "This file is larger than 100 MB. Please upload a smaller file.";
export const TOO_MANY_TRIANGLES_MESSAGE =
  "This model has more than 2,000,000 triangles. Please simplify it and upload it again.";
export const NO_TRIANGLES_MESSAGE = "This model has no triangles.";

/** `This file is not a valid STL file: it ends before its last triangle.` */
export function invalidFileMessage(format: ModelFormat, reason: string): string {
  return `This file is not a valid ${format.toUpperCase()} file: ${reason}.`;
}

/** A ModelError for a file of `format` that cannot be read, for the given plain-English reason. */
export function invalidFile(format: ModelFormat, reason: string): ModelError {
  return new ModelError(invalidFileMessage(format, reason));
}

export function tooManyTriangles(): ModelError {
  return new ModelError(TOO_MANY_TRIANGLES_MESSAGE);
}

export function noTriangles(): ModelError {
  return new ModelError(NO_TRIANGLES_MESSAGE);
}

/** The reasons given after "This file is not a valid … file:", so tests can name them. */
export const reasons = {
  empty: "the file is empty",
  notNumber: "it contains a coordinate that is not a number",
  notText: "it is not a text file",
  // STL
  stlTruncated: "it ends before its last triangle",
  stlSizeMismatch: "its size does not match its triangle count",
  stlMidFacet: "it ends in the middle of a facet",
  stlBrokenFacet: "it has a broken facet",
  stlFewCorners: "a facet has fewer than three corners",
  // OBJ and PLY
  missingVertex: "a face refers to a vertex that does not exist",
  badIndex: "a face has a vertex number that is not a whole number",
  // PLY
  plyNoHeader: "it does not start with a PLY header",
  plyBadHeader: "its header is broken",
  plyNoPositions: "its vertices have no x, y and z",
  plyNoFaceList: "its faces have no vertex list",
  plyVerticesTruncated: "it ends before its last vertex",
  plyFacesTruncated: "it ends before its last face",
  plyTruncated: "it ends before the end of its data",
  plyBadValue: "it contains a value that is not a number",
  // 3MF
  notZip: "it is not a ZIP archive",
  noModel: "it has no 3D model inside",
  tooBig: "its 3D model is too large to unpack",
  badZip: "its ZIP archive is damaged",
  compression: "its 3D model is compressed in a way this shop cannot read",
  badXml: "its 3D model is not readable",
  missingObject: "it refers to an object that does not exist",
  componentLoop: "its objects contain each other in a loop",
  tooManyParts: "it nests or repeats its parts too many times",
  badUnit: "its unit of length is not one this shop knows",
  badTransform: "it has a broken transform",
  // What a file really is, when it is not what its name says
  png: "it is a PNG image",
  jpeg: "it is a JPEG image",
  pdf: "it is a PDF document",
  zip: "it is a ZIP archive",
} as const;

/** Names a well-known file type from its first bytes, for a clearer reason; null otherwise. */
export function sniffOtherFileType(bytes: Uint8Array): string | null {
  const b0 = bytes[0];
  const b1 = bytes[1];
  const b2 = bytes[2];
  const b3 = bytes[3];
  if (b0 === 0x89 && b1 === 0x50 && b2 === 0x4e && b3 === 0x47) return reasons.png;
  if (b0 === 0xff && b1 === 0xd8 && b2 === 0xff) return reasons.jpeg;
  if (b0 === 0x25 && b1 === 0x50 && b2 === 0x44 && b3 === 0x46) return reasons.pdf;
  if (b0 === 0x50 && b1 === 0x4b && b2 === 0x03 && b3 === 0x04) return reasons.zip;
  return null;
}
