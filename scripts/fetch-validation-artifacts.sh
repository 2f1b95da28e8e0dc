#!/usr/bin/env bash
# Downloads the official validation artifacts the service runs, pinned by commit and checked by SHA-256,
# into the layout src/platform/validation expects.
#
#   scripts/fetch-validation-artifacts.sh [DIR]            # XSD + Peppol BIS 3.0.21 / CEN 1.3.16 rules (runtime)
#   scripts/fetch-validation-artifacts.sh [DIR] --tests    # + unit tests and examples for the conformance suite
#
# DIR defaults to $VALIDATION_ARTIFACTS_DIR, else ../shared/validation next to the repository.
#
# Runtime files are checked one by one against the SHA-256 below. The test data is taken with git at
# pinned commits (content-addressed); the script then checks the commit it got.
set -euo pipefail

WITH_TESTS=0
DIR_ARG=""
for arg in "$@"; do
  case "$arg" in
    --tests) WITH_TESTS=1 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    -*) echo "unknown option $arg" >&2; exit 2 ;;
    *) DIR_ARG="$arg" ;;
  esac
done
DEST="${DIR_ARG:-${VALIDATION_ARTIFACTS_DIR:-$(cd "$(dirname "$0")/.." && pwd)/../shared/validation}}"

UBL_REPO=kduvekot/ubl-release-package
UBL_COMMIT=69d9f20189fe7fa551dcc59f17d8480e70cda970          # "Release: UBL 2.1 (OASIS Standard)"
PHIVE_REPO=phax/phive-rules
PHIVE_COMMIT=432f0e9a8cff5c03d06625abe7a5fd8e7e346a64        # holds the official Peppol 2026.5 (3.0.21) rule sources
PHIVE_DIR=phive-rules-peppol/src/test/resources/external
PEPPOL_REPO=OpenPEPPOL/peppol-bis-invoice-3
PEPPOL_COMMIT=78d7f7dfa223f39f8ebd8d35c127f2690e646322       # v3.0.19
CEN_REPO=ConnectingEurope/eInvoicing-EN16931
CEN_COMMIT=b6c9e06a59812fb1a83585da40923b3678a649ad          # validation-1.3.16

# sha256  destination  source-repo  commit  source-path
MANIFEST=$(cat <<MAN
dd546e4809df86b6445589f69f0d6c9df162840ae386574ddfc1da7638103e15 xsd/ubl-2.1/xsd/common/CCTS_CCT_SchemaModule-2.1.xsd $UBL_REPO $UBL_COMMIT xsd/common/CCTS_CCT_SchemaModule-2.1.xsd
939172ad8dd057cd403e7f763f6532184dd5ed4b9de24c42ebb35db4792ba613 xsd/ubl-2.1/xsd/common/UBL-CommonAggregateComponents-2.1.xsd $UBL_REPO $UBL_COMMIT xsd/common/UBL-CommonAggregateComponents-2.1.xsd
bd4ad043ee1d9da1c7f8018dabf739cfafdfb59143d0d16b9ef769e6b7c408a7 xsd/ubl-2.1/xsd/common/UBL-CommonBasicComponents-2.1.xsd $UBL_REPO $UBL_COMMIT xsd/common/UBL-CommonBasicComponents-2.1.xsd
ad7a4e490978adfbcfc5ec0bb20941cf11ac960ccf0c4de8791a7c731a8dbe87 xsd/ubl-2.1/xsd/common/UBL-CommonExtensionComponents-2.1.xsd $UBL_REPO $UBL_COMMIT xsd/common/UBL-CommonExtensionComponents-2.1.xsd
3db472305f029bba5c1ae157bfd0178f715c3f9b94bd8e6c557dbce5e88da874 xsd/ubl-2.1/xsd/common/UBL-CommonSignatureComponents-2.1.xsd $UBL_REPO $UBL_COMMIT xsd/common/UBL-CommonSignatureComponents-2.1.xsd
8be3379dbdcbcc7802fafdd16bac72c48fff1c0bb364213a31a17911dd06100b xsd/ubl-2.1/xsd/common/UBL-CoreComponentParameters-2.1.xsd $UBL_REPO $UBL_COMMIT xsd/common/UBL-CoreComponentParameters-2.1.xsd
fcee77a11870208e6377ea6311b9f2a050bca24bdad8606ea02d71e9f9e72f8d xsd/ubl-2.1/xsd/common/UBL-ExtensionContentDataType-2.1.xsd $UBL_REPO $UBL_COMMIT xsd/common/UBL-ExtensionContentDataType-2.1.xsd
7dcb156e610239c97ae70940cf4653b88e48c3595bf5f56a2204a32e2893e6cf xsd/ubl-2.1/xsd/common/UBL-QualifiedDataTypes-2.1.xsd $UBL_REPO $UBL_COMMIT xsd/common/UBL-QualifiedDataTypes-2.1.xsd
17bb6b62d709b4fd81449a37655af36aa6a1276ad4fdb1b2e249a5ed4b7c2172 xsd/ubl-2.1/xsd/common/UBL-SignatureAggregateComponents-2.1.xsd $UBL_REPO $UBL_COMMIT xsd/common/UBL-SignatureAggregateComponents-2.1.xsd
cef924d7ba3d1d8ade14469325cde1364f8c174e46f0198ec02da8e9e748a489 xsd/ubl-2.1/xsd/common/UBL-SignatureBasicComponents-2.1.xsd $UBL_REPO $UBL_COMMIT xsd/common/UBL-SignatureBasicComponents-2.1.xsd
09052d406b4293e2a5f9c2bfee6df10ad4d8d5f0b36e24a6349d7f7936d89eb6 xsd/ubl-2.1/xsd/common/UBL-UnqualifiedDataTypes-2.1.xsd $UBL_REPO $UBL_COMMIT xsd/common/UBL-UnqualifiedDataTypes-2.1.xsd
a4f726bcf8cc3f7d9ffa4dab99e005535a8e8b60dced1e5d94578d2e05afa96e xsd/ubl-2.1/xsd/common/UBL-XAdESv132-2.1.xsd $UBL_REPO $UBL_COMMIT xsd/common/UBL-XAdESv132-2.1.xsd
1fa4625e9cefcb7a9abb5ac1b64315547450031eece8a55bd584e4ba4b79dbc1 xsd/ubl-2.1/xsd/common/UBL-XAdESv141-2.1.xsd $UBL_REPO $UBL_COMMIT xsd/common/UBL-XAdESv141-2.1.xsd
101909c9f06456d61ddcc4fb982f1d40dc357b439f393b1a2eb46e42acd60809 xsd/ubl-2.1/xsd/common/UBL-xmldsig-core-schema-2.1.xsd $UBL_REPO $UBL_COMMIT xsd/common/UBL-xmldsig-core-schema-2.1.xsd
a54651b1225052f811bf2ba01346f13f2454e7cc3e0be290c91dd680dc7b7b1a xsd/ubl-2.1/xsd/maindoc/UBL-CreditNote-2.1.xsd $UBL_REPO $UBL_COMMIT xsd/maindoc/UBL-CreditNote-2.1.xsd
40fae8cb436f3a9506d7acce65ba162caef3b0bed4d5cbc0992b2153ded4edf4 xsd/ubl-2.1/xsd/maindoc/UBL-Invoice-2.1.xsd $UBL_REPO $UBL_COMMIT xsd/maindoc/UBL-Invoice-2.1.xsd
268d4f7a2688676695e6c69cba6fba69a6802604fee12cb544a6b30ff09555a3 schematron/peppol-bis-3.0.21/rules/sch/CEN-EN16931-UBL.sch $PHIVE_REPO $PHIVE_COMMIT $PHIVE_DIR/rule-source/openpeppol/2026.5/CEN-EN16931-UBL.sch
f8234c0ec97317a5c4b690d414b0daae386031c9ac9a8ea3a5f693f5098a4cd9 schematron/peppol-bis-3.0.21/rules/sch/PEPPOL-EN16931-UBL.sch $PHIVE_REPO $PHIVE_COMMIT $PHIVE_DIR/rule-source/openpeppol/2026.5/PEPPOL-EN16931-UBL.sch
3c4d9d9161eca5f0a7e02d8a83975a90838439364d7c34007e8e4a32f342be1e schematron/peppol-bis-3.0.19/rules/sch/CEN-EN16931-UBL.sch $PEPPOL_REPO $PEPPOL_COMMIT rules/sch/CEN-EN16931-UBL.sch
2840f5158f7bbdbf3b3f5d2ea391b9ac9e649e1fdbba8502bd8c15ec52924f23 schematron/peppol-bis-3.0.19/rules/sch/PEPPOL-EN16931-UBL.sch $PEPPOL_REPO $PEPPOL_COMMIT rules/sch/PEPPOL-EN16931-UBL.sch
MAN
)

sha() { if command -v sha256sum >/dev/null; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi; }

echo "artifacts -> $DEST"
while read -r sum dest repo commit src; do
  target="$DEST/$dest"
  if [[ -f "$target" && "$(sha "$target")" == "$sum" ]]; then continue; fi
  mkdir -p "$(dirname "$target")"
  tmp="$target.download"
  curl -fsSL --retry 3 --connect-timeout 10 --max-time 120 "https://raw.githubusercontent.com/$repo/$commit/$src" -o "$tmp"
  got="$(sha "$tmp")"
  if [[ "$got" != "$sum" ]]; then
    rm -f "$tmp"
    echo "SHA-256 mismatch for $dest: expected $sum, got $got" >&2
    exit 1
  fi
  mv "$tmp" "$target"
  echo "  ok $dest"
done <<<"$MANIFEST"

# Test data: sparse checkout of the pinned commits, copied under <source>-<version>/ as in SOURCES.md.
fetch_tree() { # repo commit dest-prefix path...
  local repo=$1 commit=$2 prefix=$3
  shift 3
  local work
  work="$(mktemp -d)"
  git -C "$work" init -q
  git -C "$work" remote add origin "https://github.com/$repo.git"
  git -C "$work" sparse-checkout set --no-cone "$@"
  git -C "$work" fetch -q --depth 1 --filter=blob:none origin "$commit"
  git -C "$work" checkout -q FETCH_HEAD
  [[ "$(git -C "$work" rev-parse HEAD)" == "$commit" ]] || { echo "unexpected commit for $repo" >&2; exit 1; }
  for p in "$@"; do
    mkdir -p "$DEST/$prefix/$(dirname "$p")"
    cp -R "$work/$p" "$DEST/$prefix/$(dirname "$p")/"
  done
  rm -rf "$work"
  echo "  ok $prefix ($repo@${commit:0:12})"
}

if [[ $WITH_TESTS == 1 ]]; then
  fetch_tree "$CEN_REPO" "$CEN_COMMIT" unit-tests/cen-1.3.16 test/Invoice-unit-UBL test/CreditNote-unit-UBL
  fetch_tree "$CEN_REPO" "$CEN_COMMIT" examples/cen-1.3.16 ubl/examples
  fetch_tree "$PEPPOL_REPO" "$PEPPOL_COMMIT" unit-tests/peppol-bis-3.0.19 \
    rules/unit-UBL-PEPPOL rules/unit-UBL-DE rules/unit-UBL-DK rules/unit-UBL-GR rules/unit-UBL-IT rules/unit-UBL-NL rules/unit-UBL-NO rules/unit-UBL-SE
  fetch_tree "$PEPPOL_REPO" "$PEPPOL_COMMIT" examples/peppol-bis-3.0.19 \
    rules/examples rules/snippets rules/national-examples/GR rules/national-examples/NO
  fetch_tree "$PHIVE_REPO" "$PHIVE_COMMIT" examples/peppol-bis-3.0.21/rules/examples-src "$PHIVE_DIR/test-files/openpeppol/2026.5/billing"
  mkdir -p "$DEST/examples/peppol-bis-3.0.21/rules/examples"
  cp "$DEST/examples/peppol-bis-3.0.21/rules/examples-src/$PHIVE_DIR/test-files/openpeppol/2026.5/billing/"*.xml "$DEST/examples/peppol-bis-3.0.21/rules/examples/"
  rm -rf "$DEST/examples/peppol-bis-3.0.21/rules/examples-src"
fi
echo "done"
