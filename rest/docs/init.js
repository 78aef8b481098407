// Swagger UI over the two API versions; v2 first, so it is the default.
// Everything is served by the API itself: no request leaves this origin.
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    urls: [
      { url: "/openapi/v2.json", name: "v2" },
      { url: "/openapi/v1.json", name: "v1 (deprecated)" }
    ],
    "urls.primaryName": "v2",
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
    persistAuthorization: false,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: "StandaloneLayout"
  });
});
