"""Static files with hashed names, compressed, whose JavaScript modules import each other by their
hashed names too: the table page is native ES modules (no build step), and without this a module's
``import … from "./table/socket.js"`` would fetch the unhashed file, which browsers may cache
across a release (a new table.js talking to an old socket.js)."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ModuleAwareStaticFilesStorage(CompressedManifestStaticFilesStorage):
    # Django's own patterns for ``import … from "./x.js";`` and ``export … from``: the statements
    # must name a relative path and end with a semicolon (static/js keeps to both).
    support_js_module_import_aggregation = True
