// Starts Swagger UI on #swagger-ui. A file rather than an inline script, so the docs page's
// content security policy can be script-src 'self'. The page puts its URLs in data-*
// attributes (they carry the deployment's root path).
(function () {
  "use strict";
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.openapiUrl,
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    // Never ask validator.swagger.io for a badge: the page talks to this service only.
    validatorUrl: null,
    // Keys typed into "Authorize" stay in the page's memory, never in localStorage.
    persistAuthorization: false,
    oauth2RedirectUrl: new URL(root.dataset.oauth2RedirectUrl, window.location.href).href,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  });
})();
