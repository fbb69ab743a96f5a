import { Navigate } from 'react-router-dom';

/** react-admin's catch-all inside the layout: unknown paths go to /404. */
export function RedirectToNotFound() {
  return <Navigate to="/404" replace />;
}
