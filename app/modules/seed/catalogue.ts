// Demo catalogue used to seed an empty LayerKart shop.
// Pure data: no I/O. Prices are integer paise (49900 = ₹499.00). Artwork is described by
// ArtSpec values and rendered to SVG by drawArtwork() in artwork.ts.

import type { Motif } from "./artwork.ts";

export type DemoFeatures =
  | { shape: "list"; items: string[] } // plain list of text
  | { shape: "kv-strings"; items: string[] } // "key: value" strings, e.g. "Material: PLA"
  | { shape: "map"; map: Record<string, string> }; // key-value map

export type DemoStaticReview = {
  rating: 1 | 2 | 3 | 4 | 5;
  name: string;
  title: string;
  review: string;
  daysAgo: number;
};

export type DemoCategory = "3D Prints" | "3D Characters";

export type DemoProduct = {
  key: string; // stable unique kebab-case key
  name: string;
  description: string; // 2-4 sentences
  category: DemoCategory;
  subcategory: string;
  pricePaise: number; // integer paise; ₹149 to ₹4,999
  originalPricePaise: number | null; // set (and higher than price) only for products on sale
  discount: number; // percent 0-100; matches originalPricePaise when that is set, otherwise 0
  badge: "Best Seller" | "New" | null;
  features: DemoFeatures;
  inStock: boolean;
  stockCount: number | null; // null = stock not tracked
  isActive: boolean;
  rating: number; // 0-5, one decimal
  hsnCode: string; // "3926" plastic articles, "9503" toys/figurines
  daysOld: number; // days before seeding that the product was created (0-120)
  staticReviews: DemoStaticReview[];
  art: ArtSpec[]; // 2-4 images
};

export type ArtSpec = {
  motif: Motif;
  hue: number;
  accentHue: number;
  angle: number;
  label?: string;
};

export type DemoPromotion = {
  key: string;
  name: string;
  description: string;
  discount: string;
  cta: string;
  art: ArtSpec;
  /** The demo discount the card carries (demoDiscounts' key). */
  discountKey?: string;
};

/**
 * The demo shop's discounts (issue #23): a code on a home promotion card, an automatic offer and
 * a first-order code for custom prints. `endsInDays` counts from the day the demo is seeded.
 */
export type DemoDiscount = {
  key: string;
  name: string;
  code: string | null;
  kind: "percent" | "flat";
  percentBasisPoints?: number;
  capPaise?: number;
  amountPaise?: number;
  appliesTo: "order" | "categories" | "custom";
  categories?: string[];
  minSubtotalPaise?: number;
  firstOrderOnly?: boolean;
  perCustomerLimit?: number;
  endsInDays?: number;
};

export const demoDiscounts: DemoDiscount[] = [
  {
    key: "diwali",
    name: "Diwali 20% off Home Decor",
    code: "DIWALI20",
    kind: "percent",
    percentBasisPoints: 2000,
    capPaise: 50_000,
    appliesTo: "categories",
    categories: ["Home Decor"],
    minSubtotalPaise: 49_900,
    endsInDays: 60,
  },
  {
    key: "bulk",
    name: "Bulk order: 10% off ₹5,000 or more",
    code: null,
    kind: "percent",
    percentBasisPoints: 1000,
    appliesTo: "order",
    minSubtotalPaise: 500_000,
  },
  {
    key: "first-custom",
    name: "₹200 off your first custom print",
    code: "FIRST200",
    kind: "flat",
    amountPaise: 20_000,
    appliesTo: "custom",
    firstOrderOnly: true,
    perCustomerLimit: 1,
  },
];

/** The demo shop's free-shipping threshold. */
export const DEMO_FREE_SHIPPING_PAISE = 99_900;

/**
 * The demo shop's cash on delivery (issue 24): on, a ₹49 fee and orders up to ₹5,000 in every
 * zone but the special ones (North-East, J&K, Ladakh, Andaman and Nicobar, Lakshadweep), where
 * couriers rarely collect cash: a newcomer sees "Cash on delivery available" for a Kolkata PIN
 * and not for an Andaman one.
 */
export const DEMO_COD = {
  feePaise: 4_900,
  limitPaise: 500_000,
  offZones: ["special"] as readonly string[],
};

export const demoCategories: string[] = ["3D Prints", "3D Characters"];

export const demoSubcategories: Record<DemoCategory, string[]> = {
  "3D Prints": ["Home Decor", "Gadgets", "Planters", "Desk & Office"],
  "3D Characters": ["Anime", "Fantasy", "Mythology", "Sci-Fi"],
};

/** The same printed object seen from a few angles. */
function views(motif: Motif, hue: number, accentHue: number, angles: number[]): ArtSpec[] {
  return angles.map((angle) => ({ motif, hue, accentHue, angle }));
}

const PRINTS = "3D Prints" as const;
const CHARACTERS = "3D Characters" as const;
const HSN_PLASTIC = "3926";
const HSN_TOY = "9503";

const bestSellerReviews: DemoStaticReview[] = [
  {
    rating: 5,
    name: "Ananya",
    title: "Ordered twice now",
    review: "Second order for my sister's new flat. Same neat finish as the first time.",
    daysAgo: 3,
  },
  {
    rating: 4,
    name: "Rohit",
    title: "Pretty and sturdy",
    review:
      "Survived a fall off the table without a crack. Colour is a little lighter than the photos.",
    daysAgo: 5,
  },
  {
    rating: 5,
    name: "Lakshmi",
    title: "Perfect for pooja",
    review:
      "Just the right size for our small pooja corner. The glow through the petals is lovely.",
    daysAgo: 7,
  },
  {
    rating: 5,
    name: "Farhan",
    title: "Great Eid table decor",
    review: "Used four of them on the dining table for Eid dinner. Guests loved them.",
    daysAgo: 12,
  },
  {
    rating: 3,
    name: "Deepa",
    title: "Nice but took time",
    review: "Looks good. Delivery to Guwahati took longer than I hoped.",
    daysAgo: 15,
  },
  {
    rating: 5,
    name: "Sanjay",
    title: "Better than shop-bought",
    review: "Much finer than the moulded plastic ones in the market. Worth the price.",
    daysAgo: 18,
  },
  {
    rating: 4,
    name: "Nisha",
    title: "Good gift",
    review: "Gifted to my teacher. She was happy. Packing could have been a bit more festive.",
    daysAgo: 26,
  },
  {
    rating: 5,
    name: "Arjun",
    title: "Fits LED candles well",
    review: "Our LED tealights sit snugly. No wobble at all.",
    daysAgo: 31,
  },
  {
    rating: 5,
    name: "Kavitha",
    title: "Beautiful detail",
    review: "You can see how carefully each petal is shaped. Very happy.",
    daysAgo: 48,
  },
  {
    rating: 4,
    name: "Imran",
    title: "Solid buy",
    review: "Clean print, no strings or blobs. Would buy in gold next time.",
    daysAgo: 63,
  },
];

export const demoProducts: DemoProduct[] = [
  // ---------------------------------------------------------------- 3D Prints: Home Decor
  {
    key: "lotus-tealight-holder",
    name: "Lotus Tealight Holder",
    description:
      "A layered lotus that cradles a standard tealight, printed in a pearl-finish PLA that glows softly when lit. Each petal is printed at a fine 0.12 mm layer height for smooth curves. Perfect for Diwali, pooja corners and dinner tables.",
    category: PRINTS,
    subcategory: "Home Decor",
    pricePaise: 34900,
    originalPricePaise: null,
    discount: 0,
    badge: "Best Seller",
    features: {
      shape: "kv-strings",
      items: [
        "Material: Silk PLA (heat-resistant up to 60°C)",
        "Size: 11 cm wide × 6 cm tall",
        "Fits: Standard 38 mm tealight or LED candle",
        "Colours: Rose pink, Gold, Ivory",
      ],
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.7,
    hsnCode: HSN_PLASTIC,
    daysOld: 112,
    staticReviews: [
      {
        rating: 5,
        name: "Priya",
        title: "Looks lovely on our mandir shelf",
        review:
          "Ordered four for Diwali and they looked beautiful with LED tealights. The petals are very neatly printed, hardly any lines visible.",
        daysAgo: 40,
      },
      {
        rating: 5,
        name: "Karthik",
        title: "Good gift item",
        review: "Gave these as return gifts for a housewarming. Everyone asked where I got them.",
        daysAgo: 22,
      },
      {
        rating: 4,
        name: "Meera",
        title: "Nice, slightly smaller than expected",
        review:
          "Finish is premium and packing was good. It is a bit smaller than I imagined, so check the dimensions before ordering.",
        daysAgo: 9,
      },
      // Our best seller has enough reviews to need a second page.
      ...bestSellerReviews,
    ],
    art: views("lotus", 330, 40, [0, 35, 160]),
  },
  {
    key: "spiral-ridge-bud-vase",
    name: "Spiral Ridge Bud Vase",
    description:
      "A slim bud vase with a gentle spiral twist that catches the light from every side. It comes with a watertight insert, so fresh flowers are fine. Looks great on a window sill with a single rose or a few dried pampas stems.",
    category: PRINTS,
    subcategory: "Home Decor",
    pricePaise: 44900,
    originalPricePaise: 49900,
    discount: 10,
    badge: null,
    features: {
      shape: "map",
      map: {
        Material: "PETG with watertight glass insert",
        Height: "18 cm",
        Opening: "2.5 cm",
        Care: "Wipe with a damp cloth; not dishwasher safe",
      },
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.4,
    hsnCode: HSN_PLASTIC,
    daysOld: 74,
    staticReviews: [
      {
        rating: 4,
        name: "Ananya",
        title: "Elegant and sturdy",
        review: "The twist pattern is really pretty. Holds water fine with the insert.",
        daysAgo: 31,
      },
      {
        rating: 5,
        name: "Rohan",
        title: "Bought two",
        review: "Ordered the teal one, liked it so much I got the terracotta one as well.",
        daysAgo: 12,
      },
    ],
    art: views("vase", 190, 25, [0, 50, 300]),
  },
  {
    key: "hexa-glow-night-lamp",
    name: "Hexa Glow Night Lamp",
    description:
      "A honeycomb-patterned lamp shade on a turned stand that throws warm hexagon shadows across the room. Runs on a USB-C powered warm-white LED, so it works off any phone charger. A calm, cosy light for bedrooms and reading corners.",
    category: PRINTS,
    subcategory: "Home Decor",
    pricePaise: 129900,
    originalPricePaise: null,
    discount: 0,
    badge: "New",
    features: {
      shape: "list",
      items: [
        "USB-C powered warm-white LED (cable included)",
        "Touch dimmer with three brightness levels",
        "Shade printed in translucent PLA",
        "24 cm tall, 14 cm wide",
      ],
    },
    inStock: true,
    stockCount: 12,
    isActive: true,
    rating: 0,
    hsnCode: HSN_PLASTIC,
    daysOld: 4,
    staticReviews: [],
    art: views("lamp", 35, 200, [0, 40, 320]),
  },
  {
    key: "jaali-lattice-lantern",
    name: "Jaali Lattice Lantern",
    description:
      "Inspired by carved stone jaali screens, this lantern spreads intricate lattice shadows on the walls. It was a limited festive run and is currently paused until the next batch is printed.",
    category: PRINTS,
    subcategory: "Home Decor",
    pricePaise: 89900,
    originalPricePaise: null,
    discount: 0,
    badge: null,
    features: {
      shape: "kv-strings",
      items: ["Material: Matte PLA", "Size: 16 cm tall", "Light: Battery LED tealight included"],
    },
    inStock: true,
    stockCount: null,
    isActive: false,
    rating: 4.2,
    hsnCode: HSN_PLASTIC,
    daysOld: 118,
    staticReviews: [
      {
        rating: 4,
        name: "Fatima",
        title: "Beautiful shadows",
        review: "The shadow pattern on the wall is the best part. The LED could be brighter.",
        daysAgo: 70,
      },
    ],
    art: views("lamp", 20, 300, [0, 200]),
  },

  // ---------------------------------------------------------------- 3D Prints: Gadgets
  {
    key: "tilt-lock-phone-stand",
    name: "Tilt-Lock Phone Stand",
    description:
      "A sturdy desk stand with a locking hinge that holds your phone at any angle from 30° to 75°. The wide base and rubber feet stop it sliding, and a slot at the back lets the charging cable through. Great for video calls, recipes and binge-watching.",
    category: PRINTS,
    subcategory: "Gadgets",
    pricePaise: 29900,
    originalPricePaise: null,
    discount: 0,
    badge: "Best Seller",
    features: {
      shape: "kv-strings",
      items: [
        "Material: PLA+",
        "Fits: Phones and small tablets up to 8 inches",
        "Angle: Adjustable 30° to 75°",
        "Extras: Anti-slip rubber feet, cable slot",
      ],
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.6,
    hsnCode: HSN_PLASTIC,
    daysOld: 105,
    staticReviews: [
      {
        rating: 5,
        name: "Vikram",
        title: "Solid build, no wobble",
        review:
          "Holds my phone with a thick case without any wobble. The hinge is tight even after a month of daily use.",
        daysAgo: 55,
      },
      {
        rating: 4,
        name: "Sneha",
        title: "Useful for online classes",
        review: "My daughter uses it for her online classes. Works well, the colour is bright.",
        daysAgo: 33,
      },
      {
        rating: 5,
        name: "Arjun",
        title: "Value for money",
        review: "At this price it beats the metal stands I tried earlier. Delivery in 3 days.",
        daysAgo: 14,
      },
      {
        rating: 3,
        name: "Harish",
        title: "Okay, a bit light",
        review:
          "Does the job, but with a heavy phone at the steepest angle it tips if you tap hard.",
        daysAgo: 6,
      },
    ],
    art: views("gadget", 210, 15, [0, 30, 330, 180]),
  },
  {
    key: "cable-tamer-clips",
    name: "Cable Tamer Clips (Pack of 12)",
    description:
      "Snap-on clips that keep charging cables and earphone wires from slipping behind your desk. The adhesive backing sticks to wood, glass and laminate without drilling.",
    category: PRINTS,
    subcategory: "Gadgets",
    pricePaise: 14900,
    originalPricePaise: null,
    discount: 0,
    badge: null,
    features: {
      shape: "list",
      items: [
        "12 clips in assorted colours",
        "Holds cables up to 6 mm thick",
        "Pre-applied 3M-grade adhesive pads",
      ],
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.1,
    hsnCode: HSN_PLASTIC,
    daysOld: 88,
    staticReviews: [
      {
        rating: 4,
        name: "Nikhil",
        title: "Does what it says",
        review: "Desk looks much cleaner now. Adhesive is strong on my glass table.",
        daysAgo: 48,
      },
      {
        rating: 2,
        name: "Ritu",
        title: "Adhesive weak on painted wall",
        review: "Clips are fine but two fell off the painted wall within a week.",
        daysAgo: 20,
      },
    ],
    art: views("gear", 160, 280, [0, 90]),
  },
  {
    key: "geared-spinner-fidget",
    name: "Geared Spinner Fidget",
    description:
      "A palm-sized fidget toy with interlocking gears that turn together when you spin the outer ring. It is printed in place, fully assembled, with no glue or bearings. Oddly satisfying during long meetings.",
    category: PRINTS,
    subcategory: "Gadgets",
    pricePaise: 19900,
    originalPricePaise: null,
    discount: 0,
    badge: "New",
    features: {
      shape: "map",
      map: {
        Material: "PLA",
        Diameter: "7 cm",
        Assembly: "Printed in place, ready to use",
        "Suitable for": "Ages 8 and up",
      },
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.5,
    hsnCode: HSN_PLASTIC,
    daysOld: 9,
    staticReviews: [
      {
        rating: 5,
        name: "Aditya",
        title: "Can't stop spinning it",
        review: "Gears move smoothly straight out of the box. Bought one more for my brother.",
        daysAgo: 3,
      },
    ],
    art: views("gear", 45, 200, [0, 60, 250]),
  },
  {
    key: "wifi-router-wall-mount",
    name: "Wi-Fi Router Wall Mount",
    description:
      "A vented wall bracket that lifts your Wi-Fi router or set-top box off the floor for better signal and a tidier room. Screws and wall plugs are included. Currently out of stock; the next batch is on the printer.",
    category: PRINTS,
    subcategory: "Gadgets",
    pricePaise: 39900,
    originalPricePaise: null,
    discount: 0,
    badge: null,
    features: {
      shape: "kv-strings",
      items: [
        "Material: PETG (heat resistant)",
        "Fits: Routers up to 25 × 18 cm",
        "Includes: 2 screws and wall plugs",
      ],
    },
    inStock: false,
    stockCount: 0,
    isActive: true,
    rating: 4.3,
    hsnCode: HSN_PLASTIC,
    daysOld: 66,
    staticReviews: [
      {
        rating: 4,
        name: "Suresh",
        title: "Neat fitting",
        review: "Fits my fibre router perfectly. Installation took ten minutes.",
        daysAgo: 37,
      },
    ],
    art: views("box", 0, 210, [0, 300]),
  },

  // ---------------------------------------------------------------- 3D Prints: Planters
  {
    key: "faceted-succulent-planter",
    name: "Faceted Succulent Planter",
    description:
      "A low-poly geometric planter sized for succulents and small cacti, with a drainage hole and matching saucer. The faceted surface gives it a modern, gem-like look on any desk or balcony.",
    category: PRINTS,
    subcategory: "Planters",
    pricePaise: 29900,
    originalPricePaise: null,
    discount: 0,
    badge: "Best Seller",
    features: {
      shape: "map",
      map: {
        Material: "UV-resistant PETG",
        Size: "10 cm × 10 cm × 8 cm",
        Drainage: "Yes, with detachable saucer",
        "Plant included": "No",
      },
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.8,
    hsnCode: HSN_PLASTIC,
    daysOld: 99,
    staticReviews: [
      {
        rating: 5,
        name: "Kavya",
        title: "My succulents love it",
        review: "The saucer is a thoughtful touch. It has survived a month on my sunny balcony.",
        daysAgo: 44,
      },
      {
        rating: 5,
        name: "Siddharth",
        title: "Great desk plant pot",
        review: "Looks much more expensive than it is. The facets are crisp.",
        daysAgo: 18,
      },
      {
        rating: 4,
        name: "Lakshmi",
        title: "Pretty",
        review: "Lovely colour. I wish there was a bigger size too.",
        daysAgo: 7,
      },
    ],
    art: views("planter", 270, 170, [0, 40, 320]),
  },
  {
    key: "self-watering-herb-pot",
    name: "Self-Watering Herb Pot",
    description:
      "A two-part pot with a hidden water reservoir and cotton wick, so tulsi, mint and coriander stay watered for up to a week. A small window on the side shows the water level at a glance.",
    category: PRINTS,
    subcategory: "Planters",
    pricePaise: 67900,
    originalPricePaise: 79900,
    discount: 15,
    badge: null,
    features: {
      shape: "kv-strings",
      items: [
        "Material: Food-safe PETG",
        "Reservoir: 400 ml",
        "Size: 14 cm tall, 12 cm wide",
        "Includes: Cotton wick",
      ],
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.5,
    hsnCode: HSN_PLASTIC,
    daysOld: 58,
    staticReviews: [
      {
        rating: 5,
        name: "Pooja",
        title: "Mint is thriving",
        review: "I travel a lot and my mint plant is finally alive. Reservoir lasts about 6 days.",
        daysAgo: 25,
      },
      {
        rating: 4,
        name: "Farhan",
        title: "Works well",
        review: "Good design. The water window is small but useful.",
        daysAgo: 11,
      },
    ],
    art: views("planter", 140, 35, [0, 210, 60]),
  },
  {
    key: "hanging-geo-planter",
    name: "Hanging Geo Planter",
    description:
      "A hexagonal hanging planter with a natural jute cord, made for money plants and trailing vines. It is light enough for a curtain rod but strong enough for a balcony hook.",
    category: PRINTS,
    subcategory: "Planters",
    pricePaise: 54900,
    originalPricePaise: null,
    discount: 0,
    badge: null,
    features: {
      shape: "list",
      items: [
        "Includes 1 m natural jute hanging cord",
        "Holds a 4-inch nursery pot",
        "Weather-resistant PETG",
      ],
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.0,
    hsnCode: HSN_PLASTIC,
    daysOld: 47,
    staticReviews: [
      {
        rating: 4,
        name: "Joseph",
        title: "Looks good with a pothos",
        review: "Simple and nice. The cord could be a bit thicker.",
        daysAgo: 19,
      },
    ],
    art: views("planter", 25, 190, [0, 330]),
  },
  {
    key: "tiny-cactus-trio-planters",
    name: "Tiny Cactus Trio Planters",
    description:
      "Three mini planters shaped like smiling pots in graded sizes, made for baby succulents and air plants. A cheerful little set for a work desk or a kid's study table. Only one set left in this colourway.",
    category: PRINTS,
    subcategory: "Planters",
    pricePaise: 39900,
    originalPricePaise: null,
    discount: 0,
    badge: "New",
    features: {
      shape: "map",
      map: {
        "Set of": "3 planters",
        Sizes: "4 cm, 5.5 cm, 7 cm",
        Material: "Matte PLA",
        Drainage: "No, best for succulents and air plants",
      },
    },
    inStock: true,
    stockCount: 1,
    isActive: true,
    rating: 0,
    hsnCode: HSN_PLASTIC,
    daysOld: 2,
    staticReviews: [],
    art: views("planter", 330, 120, [0, 60]),
  },

  // ---------------------------------------------------------------- 3D Prints: Desk & Office
  {
    key: "modular-pen-tower",
    name: "Modular Pen Tower",
    description:
      "Three stackable cups of different heights that click together in any order for pens, brushes and scissors. Add more modules as your desk grows.",
    category: PRINTS,
    subcategory: "Desk & Office",
    pricePaise: 44900,
    originalPricePaise: null,
    discount: 0,
    badge: null,
    features: {
      shape: "kv-strings",
      items: ["Material: PLA+", "Modules: 3 interlocking cups", "Footprint: 20 cm × 8 cm"],
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.4,
    hsnCode: HSN_PLASTIC,
    daysOld: 81,
    staticReviews: [
      {
        rating: 5,
        name: "Divya",
        title: "Perfect for my art supplies",
        review: "Holds all my brushes and markers. The click-together joints are clever.",
        daysAgo: 29,
      },
      {
        rating: 4,
        name: "Gaurav",
        title: "Good quality",
        review: "Sturdy and well finished. Would like a version with a phone slot.",
        daysAgo: 15,
      },
    ],
    art: views("organizer", 200, 20, [0, 40, 300]),
  },
  {
    key: "hex-drawer-desk-organiser",
    name: "Hex Drawer Desk Organiser",
    description:
      "A honeycomb cabinet with four pull-out drawers for SD cards, paper clips, sticky notes and chargers. The drawers slide smoothly on printed rails and the units stack neatly side by side.",
    category: PRINTS,
    subcategory: "Desk & Office",
    pricePaise: 99900,
    originalPricePaise: 124900,
    discount: 20,
    badge: null,
    features: {
      shape: "list",
      items: [
        "4 pull-out drawers",
        "Stackable honeycomb design",
        "22 cm × 12 cm × 14 cm",
        "Printed in matte PLA",
      ],
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.6,
    hsnCode: HSN_PLASTIC,
    daysOld: 52,
    staticReviews: [
      {
        rating: 5,
        name: "Tanvi",
        title: "Desk finally organised",
        review: "Every small thing has a place now. Drawers glide well.",
        daysAgo: 21,
      },
    ],
    art: views("box", 180, 45, [0, 30, 330]),
  },
  {
    key: "laptop-riser-wedges",
    name: "Laptop Riser Wedges (Pair)",
    description:
      "A pair of low-profile wedges that tilt your laptop by 12° for easier typing and better airflow. They fold flat into a laptop sleeve when you head to the office.",
    category: PRINTS,
    subcategory: "Desk & Office",
    pricePaise: 54900,
    originalPricePaise: null,
    discount: 0,
    badge: null,
    features: {
      shape: "map",
      map: {
        Material: "PETG with silicone grip pads",
        Tilt: "12°",
        Fits: "Laptops from 11 to 17 inches",
        Weight: "90 g per pair",
      },
    },
    inStock: true,
    stockCount: 3,
    isActive: true,
    rating: 4.2,
    hsnCode: HSN_PLASTIC,
    daysOld: 39,
    staticReviews: [
      {
        rating: 4,
        name: "Rahul",
        title: "Helps with wrist pain",
        review: "Small thing but typing is more comfortable now. Grip pads hold well.",
        daysAgo: 16,
      },
      {
        rating: 4,
        name: "Neha",
        title: "Compact",
        review: "Fits in my laptop bag pocket. Good for working from cafés.",
        daysAgo: 8,
      },
    ],
    art: views("gadget", 240, 160, [0, 200, 60]),
  },
  {
    key: "mountain-card-holder",
    name: "Mountain Ridge Card Holder",
    description:
      "A business card holder shaped like a misty Himalayan ridge, holding about 40 cards. A small touch of calm for the reception desk or your own workstation.",
    category: PRINTS,
    subcategory: "Desk & Office",
    pricePaise: 24900,
    originalPricePaise: null,
    discount: 0,
    badge: null,
    features: {
      shape: "kv-strings",
      items: ["Material: Silk PLA", "Capacity: About 40 cards", "Size: 10 cm × 5 cm"],
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.3,
    hsnCode: HSN_PLASTIC,
    daysOld: 27,
    staticReviews: [],
    art: views("organizer", 215, 260, [0, 330]),
  },

  // ---------------------------------------------------------------- 3D Characters: Anime
  {
    key: "kiko-ramen-ninja-chibi",
    name: "Kiko the Ramen Ninja (Chibi)",
    description:
      "Kiko is a tiny ninja who never misses a noodle stall, shown here mid-slurp with a bowl twice her size. This chibi miniature is printed in high-detail resin at 4, 5.5 or 7 cm, unpainted or hand-painted by our studio team. A fun pick for any anime shelf.",
    category: CHARACTERS,
    subcategory: "Anime",
    pricePaise: 69900,
    originalPricePaise: null,
    discount: 0,
    badge: "Best Seller",
    features: {
      shape: "kv-strings",
      items: [
        "Material: 8K resin",
        "Sizes: 4 cm, 5.5 cm, 7 cm",
        "Finish: Hand-painted and varnished",
        "Base: Included",
      ],
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.8,
    hsnCode: HSN_TOY,
    daysOld: 96,
    staticReviews: [
      {
        rating: 5,
        name: "Ishita",
        title: "So cute!",
        review: "The painting on the face is adorable. It came in a padded box, no damage at all.",
        daysAgo: 50,
      },
      {
        rating: 5,
        name: "Varun",
        title: "Great detail for the size",
        review: "You can even see the noodles in the bowl. Very happy with it.",
        daysAgo: 27,
      },
      {
        rating: 4,
        name: "Shreya",
        title: "Lovely, small paint smudge",
        review: "A tiny smudge near the sleeve but overall very good quality.",
        daysAgo: 10,
      },
    ],
    art: views("figure", 350, 220, [0, 30, 330]),
  },
  {
    key: "hoshi-star-courier-figure",
    name: "Hoshi, Star Courier Figure",
    description:
      "Hoshi delivers letters between floating sky-cities on her battered hoverboard. This 15 cm figure has a swappable hand and a translucent scarf printed in tinted resin. Comes with a display base shaped like a cloud.",
    category: CHARACTERS,
    subcategory: "Anime",
    pricePaise: 183900,
    originalPricePaise: 229900,
    discount: 20,
    badge: null,
    features: {
      shape: "map",
      map: {
        Material: "Resin with tinted resin scarf",
        Height: "15 cm",
        Parts: "Figure, swappable hand, cloud base",
        Finish: "Hand-painted",
      },
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.6,
    hsnCode: HSN_TOY,
    daysOld: 63,
    staticReviews: [
      {
        rating: 5,
        name: "Aarav",
        title: "Centrepiece of my shelf",
        review: "The see-through scarf looks amazing under light. Worth it in the sale.",
        daysAgo: 24,
      },
      {
        rating: 4,
        name: "Manpreet",
        title: "Beautiful paint job",
        review: "Paintwork is clean. Swappable hand is a bit tight to fit.",
        daysAgo: 13,
      },
    ],
    art: views("figure", 200, 45, [0, 40, 210, 320]),
  },
  {
    key: "mochi-cat-mage-chibi",
    name: "Mochi the Cat Mage",
    description:
      "Mochi is a round little cat who studies spells but mostly naps on the spellbook. A squishy-looking chibi printed in matte PLA with painted eyes. Sits happily on a monitor or bookshelf.",
    category: CHARACTERS,
    subcategory: "Anime",
    pricePaise: 54900,
    originalPricePaise: null,
    discount: 0,
    badge: "New",
    features: {
      shape: "list",
      items: ["Sizes: 8 cm, 12 cm", "Matte PLA with hand-painted eyes", "Ships in a gift box"],
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 5,
    hsnCode: HSN_TOY,
    daysOld: 6,
    staticReviews: [
      {
        rating: 5,
        name: "Anjali",
        title: "Instant favourite",
        review: "Bought it for my sister and now I want one too. Very well made.",
        daysAgo: 2,
      },
    ],
    art: views("creature", 280, 330, [0, 30, 320]),
  },
  {
    key: "ronin-rabbit-kaze",
    name: "Ronin Rabbit Kaze (Limited Run)",
    description:
      "Kaze is a wandering rabbit swordsman with a straw hat and a very serious frown. This was a numbered limited run of 50 pieces and is no longer listed for sale.",
    category: CHARACTERS,
    subcategory: "Anime",
    pricePaise: 89900,
    originalPricePaise: null,
    discount: 0,
    badge: null,
    features: {
      shape: "kv-strings",
      items: ["Material: Resin", "Height: 12 cm", "Edition: Numbered, 50 pieces"],
    },
    inStock: true,
    stockCount: null,
    isActive: false,
    rating: 4.5,
    hsnCode: HSN_TOY,
    daysOld: 120,
    staticReviews: [
      {
        rating: 5,
        name: "Deepak",
        title: "Glad I got one",
        review: "Number 17 of 50 sitting on my desk. The straw hat texture is brilliant.",
        daysAgo: 90,
      },
    ],
    art: views("creature", 40, 0, [0, 60]),
  },

  // ---------------------------------------------------------------- 3D Characters: Fantasy
  {
    key: "ember-wyrmling-dragon",
    name: "Ember Wyrmling Dragon",
    description:
      "A young fire dragon curled protectively around its tail, wings half open. Printed in a fiery silk dual-colour PLA that shifts from orange to deep red. Makes a striking bookshelf guardian.",
    category: CHARACTERS,
    subcategory: "Fantasy",
    pricePaise: 149900,
    originalPricePaise: null,
    discount: 0,
    badge: "Best Seller",
    features: {
      shape: "map",
      map: {
        Material: "Dual-colour silk PLA",
        Height: "16 cm",
        Wingspan: "20 cm",
        Painted: "No, colour comes from the filament",
      },
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.9,
    hsnCode: HSN_TOY,
    daysOld: 90,
    staticReviews: [
      {
        rating: 5,
        name: "Rohan",
        title: "Stunning colours",
        review: "The colour shift looks even better in person. The wings are surprisingly sturdy.",
        daysAgo: 45,
      },
      {
        rating: 5,
        name: "Priya",
        title: "Son's birthday gift",
        review: "My son loves dragons and this is now his most prized possession.",
        daysAgo: 30,
      },
      {
        rating: 5,
        name: "Nikhil",
        title: "Excellent print quality",
        review: "As a hobbyist myself I can say the layer lines are very well controlled.",
        daysAgo: 8,
      },
    ],
    art: views("dragon", 15, 45, [0, 25, 335, 190]),
  },
  {
    key: "articulated-crystal-dragon",
    name: "Articulated Crystal Dragon",
    description:
      "A 45 cm flexible dragon with 40 moving segments that wiggle and curl in your hands. Printed in one piece with crystal-cut scales in a glittering translucent filament. Both a desk toy and a display piece.",
    category: CHARACTERS,
    subcategory: "Fantasy",
    pricePaise: 89900,
    originalPricePaise: null,
    discount: 0,
    badge: null,
    features: {
      shape: "kv-strings",
      items: [
        "Material: Translucent glitter PLA",
        "Length: 45 cm",
        "Segments: 40, printed in place",
        "Age: 6 years and up",
      ],
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.4,
    hsnCode: HSN_TOY,
    daysOld: 70,
    staticReviews: [
      {
        rating: 5,
        name: "Kavya",
        title: "Kids are obsessed",
        review: "Both my kids fight over it. Moves really smoothly.",
        daysAgo: 35,
      },
      {
        rating: 3,
        name: "Vikram",
        title: "One segment was stiff",
        review: "Mostly good but one joint near the tail was stiff. Freed up after some wiggling.",
        daysAgo: 17,
      },
    ],
    art: views("dragon", 185, 290, [0, 200, 60]),
  },
  {
    key: "mossback-forest-golem",
    name: "Mossback Forest Golem",
    description:
      "A gentle stone golem with a back covered in moss and tiny mushrooms, printed in a textured stone-effect filament. The hollow back can hold a real air plant.",
    category: CHARACTERS,
    subcategory: "Fantasy",
    pricePaise: 119900,
    originalPricePaise: null,
    discount: 0,
    badge: null,
    features: {
      shape: "list",
      items: [
        "Stone-effect PLA with painted moss",
        "13 cm tall",
        "Hollow back for an air plant (plant not included)",
      ],
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.3,
    hsnCode: HSN_TOY,
    daysOld: 44,
    staticReviews: [
      {
        rating: 4,
        name: "Meera",
        title: "Charming",
        review: "Looks like a real little stone creature. I put a small air plant on its back.",
        daysAgo: 19,
      },
    ],
    art: views("creature", 100, 75, [0, 330, 40]),
  },
  {
    key: "pip-goblin-tinker",
    name: "Pip the Goblin Tinker",
    description:
      "Pip fixes anything with a spanner, some string and a lot of confidence. A 9 cm tabletop-scale character with a bag full of tiny tools. Sold out for now; more are being painted.",
    category: CHARACTERS,
    subcategory: "Fantasy",
    pricePaise: 64900,
    originalPricePaise: null,
    discount: 0,
    badge: null,
    features: {
      shape: "map",
      map: {
        Material: "Resin",
        Height: "9 cm",
        Scale: "Tabletop-friendly",
        Finish: "Hand-painted",
      },
    },
    inStock: false,
    stockCount: null,
    isActive: true,
    rating: 4.6,
    hsnCode: HSN_TOY,
    daysOld: 84,
    staticReviews: [
      {
        rating: 5,
        name: "Siddharth",
        title: "Perfect for our board game nights",
        review: "Detail on the tiny tools is amazing. Please restock, I want a second one.",
        daysAgo: 41,
      },
    ],
    art: views("figure", 110, 30, [0, 330]),
  },

  // ---------------------------------------------------------------- 3D Characters: Mythology
  {
    key: "yali-temple-guardian",
    name: "Yali Temple Guardian",
    description:
      "A rearing yali, the lion-like guardian carved on South Indian temple pillars, reimagined as a compact desk statue. Printed in a bronze-effect filament that picks up warm highlights. A proud protector for your entrance shelf.",
    category: CHARACTERS,
    subcategory: "Mythology",
    pricePaise: 159900,
    originalPricePaise: null,
    discount: 0,
    badge: null,
    features: {
      shape: "kv-strings",
      items: ["Material: Bronze-effect PLA", "Height: 18 cm", "Base: Pillar-style plinth"],
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.7,
    hsnCode: HSN_TOY,
    daysOld: 77,
    staticReviews: [
      {
        rating: 5,
        name: "Karthik",
        title: "Reminds me of home",
        review: "Looks like the yalis at the temple near my grandparents' house. Beautifully done.",
        daysAgo: 34,
      },
      {
        rating: 4,
        name: "Lakshmi",
        title: "Good detailing",
        review: "The mane curls are well defined. Bronze finish is nice but a bit shiny.",
        daysAgo: 12,
      },
    ],
    art: views("creature", 35, 15, [0, 40, 320]),
  },
  {
    key: "garuda-sky-warden",
    name: "Garuda Sky Warden Statue",
    description:
      "The mighty eagle-bodied Garuda captured with wings spread wide, ready to take flight. This 25 cm statue is printed in sections and finished by hand with gold accents. A majestic statement piece for a living room.",
    category: CHARACTERS,
    subcategory: "Mythology",
    pricePaise: 279900,
    originalPricePaise: 329900,
    discount: 15,
    badge: null,
    features: {
      shape: "map",
      map: {
        Material: "PLA with hand-applied gold accents",
        Height: "25 cm",
        Wingspan: "30 cm",
        Weight: "620 g",
      },
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.8,
    hsnCode: HSN_TOY,
    daysOld: 33,
    staticReviews: [
      {
        rating: 5,
        name: "Harish",
        title: "Majestic",
        review: "The wingspan is impressive. Packing was excellent for such a delicate piece.",
        daysAgo: 14,
      },
    ],
    art: views("dragon", 45, 350, [0, 30, 330]),
  },
  {
    key: "kirtimukha-guardian-mask",
    name: "Kirtimukha Guardian Wall Mask",
    description:
      "A fierce 'face of glory' guardian mask of the kind seen above temple doorways, believed to keep bad luck away. It has a keyhole slot for hanging and a lightweight hollow back. Bold, protective decor for a doorway or a study.",
    category: CHARACTERS,
    subcategory: "Mythology",
    pricePaise: 109900,
    originalPricePaise: null,
    discount: 0,
    badge: null,
    features: {
      shape: "list",
      items: [
        "22 cm × 20 cm wall mask",
        "Hidden keyhole hanging slot",
        "Antique gold and red painted finish",
      ],
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.5,
    hsnCode: HSN_TOY,
    daysOld: 61,
    staticReviews: [
      {
        rating: 5,
        name: "Deepak",
        title: "Looks great above our door",
        review: "Everyone who visits notices it. Very light, so the hanging slot is enough.",
        daysAgo: 28,
      },
      {
        rating: 4,
        name: "Ananya",
        title: "Striking",
        review: "Colours are rich. The red is slightly darker than in the photos.",
        daysAgo: 9,
      },
    ],
    art: views("mask", 40, 0, [0, 25, 335]),
  },
  {
    key: "naga-coil-guardian",
    name: "Naga Coil Guardian",
    description:
      "A many-hooded serpent guardian coiled in protective loops, with every scale printed in fine relief. Finished in a deep emerald filament with a pearl sheen.",
    category: CHARACTERS,
    subcategory: "Mythology",
    pricePaise: 179900,
    originalPricePaise: null,
    discount: 0,
    badge: null,
    features: {
      shape: "kv-strings",
      items: ["Material: Pearl silk PLA", "Height: 17 cm", "Hoods: Five"],
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.4,
    hsnCode: HSN_TOY,
    daysOld: 50,
    staticReviews: [],
    art: views("dragon", 150, 60, [0, 200]),
  },

  // ---------------------------------------------------------------- 3D Characters: Sci-Fi
  {
    key: "bolt-7-desk-buddy-robot",
    name: "Bolt-7 Desk Buddy Robot",
    description:
      "Bolt-7 is a retro service robot with poseable arms and a head that turns a full 360°. Its chest panel glows in the dark after a few minutes under a lamp. A friendly companion for coders and gamers.",
    category: CHARACTERS,
    subcategory: "Sci-Fi",
    pricePaise: 79900,
    originalPricePaise: null,
    discount: 0,
    badge: "New",
    features: {
      shape: "map",
      map: {
        Material: "PLA with glow-in-the-dark chest panel",
        Height: "14 cm",
        Articulation: "Rotating head, poseable arms",
      },
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.7,
    hsnCode: HSN_TOY,
    daysOld: 11,
    staticReviews: [
      {
        rating: 5,
        name: "Arjun",
        title: "Glow panel is a nice touch",
        review: "Sits on my monitor and glows after I switch off the lights. Love it.",
        daysAgo: 5,
      },
      {
        rating: 4,
        name: "Tanvi",
        title: "Cute robot",
        review: "Well made. Arms could hold poses a bit more firmly.",
        daysAgo: 3,
      },
    ],
    art: views("robot", 205, 30, [0, 35, 325]),
  },
  {
    key: "orbital-scout-rocket",
    name: "Orbital Scout Rocket Model",
    description:
      "A chunky retro-futurist rocket on a launch-pad stand, with a separating nose cone that hides a tiny astronaut. A great gift for young space fans and ISRO launch-day watch parties.",
    category: CHARACTERS,
    subcategory: "Sci-Fi",
    pricePaise: 59900,
    originalPricePaise: null,
    discount: 0,
    badge: null,
    features: {
      shape: "list",
      items: [
        "22 cm tall with launch-pad stand",
        "Removable nose cone with mini astronaut",
        "Multi-colour PLA, no painting needed",
      ],
    },
    inStock: true,
    stockCount: null,
    isActive: true,
    rating: 4.5,
    hsnCode: HSN_TOY,
    daysOld: 56,
    staticReviews: [
      {
        rating: 5,
        name: "Gaurav",
        title: "Kid loved the hidden astronaut",
        review: "My 7-year-old was thrilled to find the astronaut inside.",
        daysAgo: 22,
      },
      {
        rating: 4,
        name: "Neha",
        title: "Bright colours",
        review: "Good quality and bright. Nose cone fit is slightly loose.",
        daysAgo: 10,
      },
    ],
    art: views("rocket", 0, 220, [0, 25, 335]),
  },
  {
    key: "mech-pilot-zara-premium",
    name: "Mech Pilot Zara (Premium Resin)",
    description:
      "Zara stands beside her battle-worn exo-frame, helmet under one arm, ready for the next sortie. This premium 20 cm two-piece statue is printed in 8K resin and painted with weathering effects by our senior artist. Produced in very small batches.",
    category: CHARACTERS,
    subcategory: "Sci-Fi",
    pricePaise: 499900,
    originalPricePaise: null,
    discount: 0,
    badge: null,
    features: {
      shape: "kv-strings",
      items: [
        "Material: 8K resin",
        "Height: 20 cm",
        "Finish: Hand-painted with weathering",
        "Includes: Certificate of authenticity",
      ],
    },
    inStock: true,
    stockCount: 2,
    isActive: true,
    rating: 4.9,
    hsnCode: HSN_TOY,
    daysOld: 29,
    staticReviews: [
      {
        rating: 5,
        name: "Varun",
        title: "Museum quality",
        review: "The weathering on the armour is incredible. Worth every rupee.",
        daysAgo: 12,
      },
    ],
    art: [
      { motif: "robot", hue: 220, accentHue: 15, angle: 0 },
      { motif: "figure", hue: 220, accentHue: 15, angle: 30 },
      { motif: "robot", hue: 220, accentHue: 15, angle: 330 },
    ],
  },
];

export const demoPromotions: DemoPromotion[] = [
  {
    key: "diwali-festive-offer",
    name: "Diwali Festive Offer",
    description:
      "Light up your home this festive season with lotus tealight holders, lanterns and printed decor. 20% off Home Decor from ₹499 (up to ₹500 off), with gift wrapping on request.",
    discount: "20% OFF",
    cta: "Shop Festive Decor",
    discountKey: "diwali",
    art: { motif: "lotus", hue: 30, accentHue: 330, angle: 0, label: "Diwali Offer" },
  },
  {
    key: "bulk-order-offer",
    name: "Bulk & Corporate Orders",
    description:
      "Ordering desk organisers, return gifts or event giveaways? Get 10% off every order of ₹5,000 or more, with a GST invoice and custom colours.",
    discount: "10% OFF",
    cta: "Request a Bulk Quote",
    discountKey: "bulk",
    art: { motif: "box", hue: 210, accentHue: 45, angle: 0, label: "Bulk Orders" },
  },
  {
    key: "custom-print-offer",
    name: "Custom Print Service",
    description:
      "Have an STL file or just an idea? Our team will model, print and finish it for you in your choice of material. Get ₹200 off your first custom print order.",
    discount: "₹200 OFF",
    cta: "Start a Custom Print",
    discountKey: "first-custom",
    art: { motif: "robot", hue: 160, accentHue: 280, angle: 0, label: "Custom Prints" },
  },
];

export const demoSponsoredKeys: string[] = [
  "lotus-tealight-holder",
  "tilt-lock-phone-stand",
  "kiko-ramen-ninja-chibi",
  "ember-wyrmling-dragon",
];

/**
 * Each demo product's packed weight (g) and shipping box (L × B × H cm), by name (issue 24): what
 * the shipping rate is worked out from. Light prints in small boxes; statues and lamps in large ones.
 */
export const demoParcels: Record<
  string,
  [grams: number, lengthCm: number, widthCm: number, heightCm: number]
> = {
  "Lotus Tealight Holder": [180, 12, 12, 8],
  "Spiral Ridge Bud Vase": [260, 12, 12, 22],
  "Hexa Glow Night Lamp": [520, 18, 18, 22],
  "Jaali Lattice Lantern": [450, 20, 20, 26],
  "Tilt-Lock Phone Stand": [150, 14, 10, 6],
  "Cable Tamer Clips (Pack of 12)": [90, 12, 8, 4],
  "Geared Spinner Fidget": [70, 10, 10, 4],
  "Wi-Fi Router Wall Mount": [200, 22, 14, 6],
  "Faceted Succulent Planter": [240, 14, 14, 12],
  "Self-Watering Herb Pot": [380, 18, 18, 18],
  "Hanging Geo Planter": [300, 20, 20, 16],
  "Tiny Cactus Trio Planters": [220, 20, 10, 8],
  "Modular Pen Tower": [260, 14, 14, 18],
  "Hex Drawer Desk Organiser": [650, 26, 20, 16],
  "Laptop Riser Wedges (Pair)": [340, 24, 10, 8],
  "Mountain Ridge Card Holder": [120, 14, 8, 6],
  "Kiko the Ramen Ninja (Chibi)": [160, 12, 12, 14],
  "Hoshi, Star Courier Figure": [220, 14, 12, 20],
  "Mochi the Cat Mage": [180, 12, 12, 15],
  "Ronin Rabbit Kaze (Limited Run)": [260, 14, 14, 22],
  "Ember Wyrmling Dragon": [300, 20, 16, 14],
  "Articulated Crystal Dragon": [240, 30, 10, 8],
  "Mossback Forest Golem": [480, 18, 18, 22],
  "Pip the Goblin Tinker": [170, 12, 12, 14],
  "Yali Temple Guardian": [620, 20, 16, 26],
  "Garuda Sky Warden Statue": [900, 28, 22, 32],
  "Kirtimukha Guardian Wall Mask": [540, 28, 26, 10],
  "Naga Coil Guardian": [520, 20, 20, 24],
  "Bolt-7 Desk Buddy Robot": [280, 14, 14, 18],
  "Orbital Scout Rocket Model": [350, 12, 12, 36],
  "Mech Pilot Zara (Premium Resin)": [320, 16, 14, 24],
};

/**
 * Demo products sold in several variants (issue 22), by product key: the first variant is the one
 * the product page opens on. Kiko comes in three sizes at their own prices, unpainted or painted,
 * with one combination sold out; Mochi in three colours with swatches and two sizes, the big
 * peach one sold out. Products the e2e journeys
 * use stay without options.
 */
export const demoVariants: Record<
  string,
  {
    options: { name: string; values: { value: string; swatch?: string }[] }[];
    variants: {
      values: string[];
      pricePaise: number;
      originalPricePaise?: number | null;
      stockCount: number | null;
    }[];
  }
> = {
  "kiko-ramen-ninja-chibi": {
    options: [
      { name: "Size", values: [{ value: "4 cm" }, { value: "5.5 cm" }, { value: "7 cm" }] },
      { name: "Finish", values: [{ value: "Unpainted" }, { value: "Hand-painted" }] },
    ],
    variants: [
      { values: ["5.5 cm", "Hand-painted"], pricePaise: 69900, stockCount: 9 },
      { values: ["4 cm", "Unpainted"], pricePaise: 29900, stockCount: 25 },
      { values: ["4 cm", "Hand-painted"], pricePaise: 49900, stockCount: 12 },
      { values: ["5.5 cm", "Unpainted"], pricePaise: 44900, stockCount: 18 },
      { values: ["7 cm", "Unpainted"], pricePaise: 64900, stockCount: 6 },
      // Sold out: the pickers show it, and checkout refuses it.
      { values: ["7 cm", "Hand-painted"], pricePaise: 99900, stockCount: 0 },
    ],
  },
  "mochi-cat-mage-chibi": {
    options: [
      {
        name: "Colour",
        values: [
          { value: "Lavender", swatch: "#b39ddb" },
          { value: "Mint", swatch: "#80cbc4" },
          { value: "Peach", swatch: "#ffab91" },
        ],
      },
      { name: "Size", values: [{ value: "8 cm" }, { value: "12 cm" }] },
    ],
    variants: [
      { values: ["Lavender", "8 cm"], pricePaise: 54900, stockCount: 14 },
      { values: ["Mint", "8 cm"], pricePaise: 54900, stockCount: 8 },
      { values: ["Peach", "8 cm"], pricePaise: 54900, stockCount: 3 },
      { values: ["Lavender", "12 cm"], pricePaise: 84900, stockCount: 5 },
      { values: ["Mint", "12 cm"], pricePaise: 84900, stockCount: 4 },
      // Sold out: the pickers show it, and checkout refuses it.
      { values: ["Peach", "12 cm"], pricePaise: 84900, stockCount: 0 },
    ],
  },
};
