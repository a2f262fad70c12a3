// /preview: the signed-in operator's own quote page in preview mode (docs/product.md §2).
import { CompanyWrapper } from './CompanyWrapper';

export default function PreviewPage() {
  return <CompanyWrapper />;
}
