import { insertProduct } from "../../tests/support/factories.ts";
