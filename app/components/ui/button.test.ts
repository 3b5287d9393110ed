import { describe, expect, it } from "vitest";
import { buttonVariants } from "./button.tsx";

describe("a button's classes", () => {
  it("are the component classes of its look, the default one unless told", () => {
    expect(buttonVariants()).toBe("btn btn-primary hover:bg-primary/90 btn-md");
    expect(buttonVariants({ variant: "outline", size: "sm" })).toBe(
      "btn btn-outline hover:bg-accent hover:text-accent-foreground btn-sm",
    );
    expect(buttonVariants({ variant: null, size: "icon" })).toBe(
      "btn btn-primary hover:bg-primary/90 btn-icon",
    );
  });

  it("keep the caller's own classes after them, a hover colour of theirs replacing the look's", () => {
    expect(buttonVariants({ variant: "ghost", className: "rounded-full w-full" })).toBe(
      "btn hover:bg-accent hover:text-accent-foreground btn-md rounded-full w-full",
    );
    expect(buttonVariants({ variant: "ghost", className: "hover:bg-background" })).toBe(
      "btn hover:text-accent-foreground btn-md hover:bg-background",
    );
    // A plain background leaves the hover alone.
    expect(buttonVariants({ variant: "outline", className: "bg-background/85" })).toContain(
      "hover:bg-accent",
    );
  });
});
