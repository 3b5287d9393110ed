/**
 * Module resolution hooks for scripts run directly by Node: `~/x` means `app/x` (as in the app's
 * tsconfig and Vite config), and an import without an extension finds its `.ts` file.
 */
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const appDir = fileURLToPath(new URL("../../app/", import.meta.url));

type Resolve = (
  specifier: string,
  context: unknown,
) => Promise<{ url: string; format?: string; shortCircuit?: boolean }>;

export async function resolve(specifier: string, context: unknown, next: Resolve) {
  if (specifier.startsWith("~/")) {
    const base = appDir + specifier.slice(2);
    const file = [base, `${base}.ts`, `${base}/index.ts`].find((f) => existsSync(f)) ?? base;
    return next(pathToFileURL(file).href, context);
  }
  return next(specifier, context);
}
