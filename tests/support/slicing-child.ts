/**
 * A process that slices with the fake slicer (tests/support/fake-slicer.sh, told to sleep) and,
 * like the shop's server, ends with process.exit on SIGTERM or SIGINT: the slicer adapter's test
 * stops it and checks that the slicer's process group went with it. Prints "slicing" once the
 * slicer runs.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { createSlicer } from "../../app/adapters/slicer/index.server.ts";

const slicer = createSlicer({
  path: path.join(import.meta.dirname, "fake-slicer.sh"),
  timeLimitMs: 600_000,
  memoryBytes: 1024 ** 3,
});
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => process.exit(0));
void slicer.slice({
  stl: new Uint8Array(84),
  materialId: "pla",
  density: 1.24,
  layerHeightMm: 0.2,
  infillPercent: 20,
  supports: false,
  bed: { x: 200, y: 200 },
});
const pidFile = process.env.FAKE_SLICER_PID_FILE ?? "";
const started = setInterval(() => {
  if (existsSync(pidFile)) {
    clearInterval(started);
    console.log("slicing");
  }
}, 20);
