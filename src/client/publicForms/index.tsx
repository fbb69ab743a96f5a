/** Public forms and e-signed cards, the administrator's side (docs/public-forms.md): publish, edit, submissions. */
import { Route } from 'react-router-dom';
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';

const PublicFormsPage = lazyPage('PublicForms', () => import('./PublicFormsPage'));
const SubmissionsPage = lazyPage('PublicFormSubmissions', () => import('./SubmissionsPage'));

const publicForms: ClientFeature = {
  routes: [
    <Route key="public-forms" path="/public-forms" element={<PublicFormsPage />} />,
    <Route key="public-form-submissions" path="/public-forms/:id/submissions" element={<SubmissionsPage />} />,
  ],
};

export default publicForms;
