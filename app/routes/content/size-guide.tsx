import { Link } from "react-router";
import { ContentPage, ContentSection } from "~/components/content/content-page";
import { personalPageHandle } from "~/lib/public-page.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import type { Route } from "./+types/size-guide";

export const handle = personalPageHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Size Guide",
    description:
      "LayerKart print sizes: Miniature 1-5 cm, Small 5-15 cm, Medium 15-30 cm and Large 30+ cm, with what each size suits.",
    path: "/size-guide",
    origin: originFrom(matches),
  });

const sizes = [
  {
    size: "Miniature",
    range: "1-5 cm",
    goodFor: "Tabletop gaming figures, keychains, charms and cake toppers",
  },
  {
    size: "Small",
    range: "5-15 cm",
    goodFor: "Desk figures, planters, phone stands and ornaments",
  },
  {
    size: "Medium",
    range: "15-30 cm",
    goodFor: "Display figures, lamps, vases and organisers",
  },
  {
    size: "Large",
    range: "30+ cm",
    goodFor: "Statement décor, busts and cosplay props, often printed in parts and assembled",
  },
] as const;

export default function SizeGuide() {
  return (
    <ContentPage
      eyebrow="Help"
      title="Size Guide"
      lead="Our prints come in four sizes. Sizes refer to the tallest or longest side of the finished piece."
    >
      <ContentSection title="Print sizes" prose={false}>
        <div className="overflow-hidden rounded-xl border">
          <table className="w-full border-collapse text-left text-sm">
            <caption className="sr-only">Print sizes and what they are good for</caption>
            <thead className="bg-muted">
              <tr>
                <th scope="col" className="px-3 py-3 sm:px-4 font-semibold">
                  Size
                </th>
                <th scope="col" className="px-3 py-3 sm:px-4 font-semibold">
                  Height or length
                </th>
                <th scope="col" className="px-3 py-3 sm:px-4 font-semibold">
                  Good for
                </th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {sizes.map((row) => (
                <tr key={row.size} className="bg-card">
                  <th scope="row" className="px-3 py-3 sm:px-4 font-semibold">
                    {row.size}
                  </th>
                  <td className="whitespace-nowrap px-3 py-3 sm:px-4">{row.range}</td>
                  <td className="px-3 py-3 sm:px-4 text-muted-foreground">{row.goodFor}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </ContentSection>

      <ContentSection title="Choosing a size">
        <ul>
          <li>
            Measure the spot where the piece will stand. A ruler or a phone next to it is a good
            reality check: most phones are about 15 cm tall.
          </li>
          <li>
            Finer details show best at Medium and Large sizes. Miniatures keep the overall shape but
            simplify the smallest features.
          </li>
          <li>
            Check the product description for the size of each piece. When in doubt between two
            sizes, pick the larger one for display pieces and the smaller one for desks and shelves.
          </li>
        </ul>
      </ContentSection>

      <ContentSection title="Need a different size?">
        <p>
          Most designs can be scaled up or down.{" "}
          <Link to="/contact?subject=Custom%20size">Tell us the size you need</Link> and we will
          check that the design prints well at that scale and send you a price.
        </p>
      </ContentSection>
    </ContentPage>
  );
}
