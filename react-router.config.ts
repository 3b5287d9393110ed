import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  appDirectory: "app",
  // BUILD_DIR lets parallel checkouts of the work build side by side; the default is "build".
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;
