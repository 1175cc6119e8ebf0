"""How static files are shipped in production: whitenoise's storage (hashed names,
compressed copies; the imports of the app's modules name the hashed files), with the app's
own scripts sent without their comments, blank lines and indentation. The sources stay
commented; the first load of a sheet stays within its budget (``make bench``).

The stripping is line by line and keeps every line break, so statements end where they did:
it is only for scripts whose strings and template literals each hold on one line, as ours do
(``test_the_scripts_as_shipped_still_parse`` in ``tests/test_browser.py`` checks it).
"""

from __future__ import annotations

from django.contrib.staticfiles.storage import ManifestStaticFilesStorage
from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage

OWN_SCRIPTS = "js/"  # the app's scripts, as opposed to vendored ones (htmx, already minified)


def strip_script(text: str) -> str:
    """The script without whole-line ``//`` comments, blank lines and indentation."""
    lines = (line.strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line and not line.startswith("//")) + "\n"


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

    def _save(self, name, content):
        if name.startswith(OWN_SCRIPTS) and name.endswith(".js"):
            content.seek(0)  # a hashed copy comes already read once
            content = ContentFile(strip_script(content.read().decode("utf-8")).encode("utf-8"))
        return super()._save(name, content)
