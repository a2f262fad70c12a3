// The widget build's stylesheet step (vite.widget.config.ts): sizes fixed in pixels whatever the
// host page's root font size, and the same look in fewer bytes of widget.js.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { inPixels, UNRENDERED_ELEMENTS, withoutUnrenderedElements } from '../vite.widget.config';

it('turns rem sizes into pixels at 16 px a rem', () => {
  expect(inPixels('.a{font-size:.875rem;margin:1.5rem}')).toBe('.a{font-size:14px;margin:24px}');
});

it("works a spacing utility's calc() out against the theme's --spacing, negative and fractional ones too", () => {
  const css =
    ':host{--spacing:.25rem}.mt-4{margin-top:calc(var(--spacing) * 4)}.-mx-2{margin-inline:calc(var(--spacing) * -2)}.gap-1\\.5{gap:calc(var(--spacing)*1.5)}.p-1{padding:var(--spacing)}';
  expect(inPixels(css)).toBe(':host{--spacing:4px}.mt-4{margin-top:16px}.-mx-2{margin-inline:-8px}.gap-1\\.5{gap:6px}.p-1{padding:4px}');
});

it('leaves calc() alone when the stylesheet declares no --spacing', () => {
  expect(inPixels('.mt-4{margin-top:calc(var(--spacing) * 4)}')).toBe('.mt-4{margin-top:calc(var(--spacing) * 4)}');
});

it('gives lab() colours one decimal place, and touches no oklab() or other numbers', () => {
  const css =
    ':host{--c:lab(98.1434% -.369519 -1.05966);--d:lab(28.5139% 44.5539 29.0463)}@supports (color:lab(0% 0 0)){}.x{color:color-mix(in oklab,oklab(0.512345 0.1 0.2) 50%,red);opacity:.123456}';
  expect(inPixels(css)).toBe(
    ':host{--c:lab(98.1% -.4 -1.1);--d:lab(28.5% 44.6 29)}@supports (color:lab(0% 0 0)){}.x{color:color-mix(in oklab,oklab(0.512345 0.1 0.2) 50%,red);opacity:.123456}',
  );
});

it('drops the rules of elements the widget never renders, and keeps a rule naming a rendered one too', () => {
  const css =
    ':root,:host{--font-sans:Arial;--font-mono:ui-monospace, Menlo;--default-font-family:var(--font-sans);--default-mono-font-family:var(--font-mono)}' +
    '@layer base{*,:after{margin:0}hr{height:0}abbr:where([title]){text-decoration:underline dotted}code,kbd,samp,pre{font-size:1em}' +
    'sub,sup{font-size:75%}sub{bottom:-.25em}ol,ul,menu{list-style:none}img,svg,video{display:block}h1,h2{font-size:inherit}a{color:inherit}}' +
    '@layer utilities{.table{display:table}.hr\\:x{color:red}}';
  expect(withoutUnrenderedElements(css)).toBe(
    ':root,:host{--font-sans:Arial;--default-font-family:var(--font-sans)}' +
      '@layer base{*,:after{margin:0}img,svg,video{display:block}h1,h2{font-size:inherit}a{color:inherit}}' +
      '@layer utilities{.table{display:table}.hr\\:x{color:red}}',
  );
});

it('names only elements that nothing in widget/src renders', () => {
  const dir = path.join(import.meta.dirname, 'src');
  const sources = readdirSync(dir)
    .filter((file) => /\.tsx?$/.test(file) && !file.includes('.test.'))
    .map((file) => readFileSync(path.join(dir, file), 'utf8'))
    .join('\n');
  for (const element of UNRENDERED_ELEMENTS) {
    expect(sources, element).not.toMatch(new RegExp(`<${element}[\\s>/]|createElement\\(['"\`]${element}['"\`]`));
  }
  // The check finds an element that is rendered.
  expect(sources).toMatch(/<img[\s>/]/);
});
