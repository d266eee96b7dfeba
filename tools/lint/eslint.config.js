// Lint for src/ and test/, run from the repository root by `npm run lint`.
// typescript-eslint needs TypeScript's JS API, which TypeScript 7 (the root's compiler) lacks,
// so it runs on the TypeScript 5.9 installed here beside it.
import path from "node:path";
import { fileURLToPath } from "node:url";
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export default defineConfig(
  { basePath: root },
  { ignores: ["dist/**", "dist-bench/**", "coverage/**", "tools/**", "examples/**"] },
  {
    files: ["src/**/*.ts", "test/**/*.ts"],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { project: ["./tsconfig.check.json"], tsconfigRootDir: root },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      // A `default` is a decision about the other members (e.g. a switch on an error code).
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      // Address renders itself (toString) and is written into messages everywhere.
      "@typescript-eslint/restrict-template-expressions": [
        "error",
        {
          allowAny: true, allowBoolean: true, allowNullish: true, allowNumber: true, allowRegExp: true,
          allow: [{ from: "lib", name: ["Error", "URL", "URLSearchParams"] }, { from: "file", name: "Address", path: "src/core/address.ts" }],
        },
      ],
      // Passing on a caught `unknown` as the rejection is right; new rejections must be Errors.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingUnknown: true }],
      // `async` here marks functions meeting a Promise-returning interface: throws become rejections.
      "@typescript-eslint/require-await": "off",
      // Errors are rewritten into one line for people on purpose; a `cause` would carry the
      // original (server text, possibly a secret) on into util.inspect output.
      "preserve-caught-error": "off",
    },
  },
  {
    // Tests read JSON answers as `any` and assert on them with expect(): the assertion is the
    // check; fakes read request bodies as leniently as String() of whatever the SDK sent.
    files: ["test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-base-to-string": "off",
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    files: ["test/**/*.mjs"],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
);
