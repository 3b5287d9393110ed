import { describe, expect, it } from "vitest";
import { buttonVariants } from "./button.tsx";

describe("a button's classes", () => {
  it("are the component classes of its look, the default one unless told", () => {
    expect(buttonVariants()).toBe("btn btn-primary btn-md");
    expect(buttonVariants({ variant: "outline", size: "sm" })).toBe("btn btn-outline btn-sm");
    expect(buttonVariants({ variant: null, size: "icon" })).toBe("btn btn-primary btn-icon");
  });

  it("keep the caller's own classes after them", () => {
    expect(buttonVariants({ variant: "ghost", className: "rounded-full w-full" })).toBe(
      "btn btn-ghost btn-md rounded-full w-full",
    );
  });
});
