"""How static files are shipped in production: whitenoise's storage (hashed names, compressed
copies, cached for ever), whose hashing also renames the imports of the app's ES modules."""

from __future__ import annotations

from django.contrib.staticfiles.storage import ManifestStaticFilesStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage

OWN_SCRIPTS = "js/"  # the app's scripts, as opposed to vendored ones (htmx, already minified)


class ShippedStaticFiles(CompressedManifestStaticFilesStorage):
    # The app's scripts are ES modules: their `import … from "./x.js";` and `import("./x.js")`
    # must name the hashed files too. Django 5.2 rewrites module imports only with
    # `support_js_module_import_aggregation`, and then in every script, where htmx's vendored
    # extensions name files that are not there (`import("../htmx")` in a JSDoc type): its
    # patterns, on ours only.
    # A module's hash covers the hashed names it imports, so no two modules may import each
    # other, directly or not (collectstatic stops: "Max post-process passes exceeded").
    patterns = (
        *CompressedManifestStaticFilesStorage.patterns,
        (
            f"{OWN_SCRIPTS}*.js",
            ManifestStaticFilesStorage._js_module_import_aggregation_patterns[1],
        ),
    )
