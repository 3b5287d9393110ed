import type { Page } from "@playwright/test";
import {
  box,
  cube,
  to3mfObjects,
  toBinaryStl,
  voxels,
} from "../../app/rules/model3d/testing/shapes.ts";
import { whenHydrated } from "./fixtures.ts";

/*
 * Model files the custom-printing journeys drop on the quote page, generated in the test
 * (app/rules/model3d/testing/shapes.ts), and the ways a browser hands them over.
 */

/** A 10 mm cube as a binary STL. */
export const cubeStl = () => Buffer.from(toBinaryStl(cube(10)));

/** Drops a file on the drop zone the way a browser does (a DataTransfer with a File). */
export async function dropFile(page: Page, name: string, bytes: Buffer) {
  await dropFiles(page, [{ name, bytes }]);
}

/**
 * Drops several files at once. A person drags a file there some time after the page shows; the
 * page's scripts start after its first paint (decision 0032), so the drop waits until React has
 * hydrated the drop zone, as a person's would come after that.
 */
export async function dropFiles(page: Page, files: Array<{ name: string; bytes: Buffer }>) {
  const zone = page.getByTestId("model-drop");
  await whenHydrated(zone);
  const transfer = await page.evaluateHandle(
    (list) => {
      const dt = new DataTransfer();
      for (const { name, data } of list) dt.items.add(new File([new Uint8Array(data)], name));
      return dt;
    },
    files.map(({ name, bytes }) => ({ name, data: [...bytes] })),
  );
  await zone.dispatchEvent("drop", { dataTransfer: transfer });
}

/** A plate of two objects in one 3MF: a 10 mm cube and a 30 × 20 × 10 mm block beside it. */
export const plate3mf = () =>
  Buffer.from(
    to3mfObjects([
      { mesh: cube(10) },
      { mesh: box(30, 20, 10), transform: "1 0 0 0 1 0 0 0 1 60 0 0" },
    ]),
  );

/**
 * A shelf of 10 mm cubes: a 30 × 30 mm base, a post 30 mm tall at one corner and an arm 30 mm long
 * on top of it, 20 mm of it over nothing. Laid on its base (its largest flat face), the arm still
 * needs support: 200 mm² of overhang, 20 mm above the base.
 */
export const shelf = () =>
  voxels(
    [
      ...[0, 1, 2].flatMap((x) => [0, 1, 2].map((y): [number, number, number] => [x, y, 0])),
      [0, 0, 1],
      [0, 0, 2],
      [0, 0, 3],
      [1, 0, 3],
      [2, 0, 3],
    ],
    10,
  );

/** A project's plate in one 3MF: a 10 mm cube and the shelf beside it. */
export const projectPlate3mf = () =>
  Buffer.from(
    to3mfObjects([{ mesh: cube(10) }, { mesh: shelf(), transform: "1 0 0 0 1 0 0 0 1 60 0 0" }]),
  );

/** As if another person took over on another browser: no cookies, no stored cart. */
export async function switchBrowser(page: Page) {
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());
}
