// The client's start request, begun while the app's code downloads: GET /api/bootstrap answers the config, the
// signed-in person (or null), the features and the record types at once. src/client/app/startAnswer.ts takes the
// promise. A plain script, not part of the bundle, so it runs before the app's chunk has loaded; any failure leaves
// null, and the app then asks the separate endpoints as it would without it.
window.__startAnswer = fetch('/api/bootstrap', { credentials: 'include', headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' } })
  .then(function (response) {
    return response.ok ? response.json() : null;
  })
  .then(function (body) {
    return body && body.data ? body.data : null;
  })
  .catch(function () {
    return null;
  });
