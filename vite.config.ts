import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { clientCodeSplitting } from "./vite.chunks.ts";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  build: { sourcemap: false },
  environments: {
    // Fewer, larger files for the browser (see vite.chunks.ts).
    client: { build: { rolldownOptions: { output: { codeSplitting: clientCodeSplitting() } } } },
  },
  ssr: {
    // Native/wasm server packages stay external: they are loaded from node_modules at run time.
    external: ["@electric-sql/pglite", "sharp", "pg", "nodemailer"],
  },
});
