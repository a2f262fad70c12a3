// The customer quote form is written once in widget/ (docs/architecture.md §1); the admin SPA renders it
// for the landing demo, /preview and the company page. Importing it through this one module
// keeps it out of the first-load chunk (callers lazy-load this file).
export { QuoteForm, type QuoteFormProps } from '../../../widget/src/QuoteForm';
