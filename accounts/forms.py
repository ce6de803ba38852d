from django import forms
from django.utils.translation import gettext_lazy as _

MAX_CSV_BYTES = 1_000_000


class UsersImportForm(forms.Form):
    """A CSV of username,email,role, uploaded as a file or pasted."""

    file = forms.FileField(
        label=_("CSV file"),
        required=False,
        help_text=_("Columns username,email,role (comma or semicolon separated)."),
    )
    text = forms.CharField(
        label=_("Or paste the CSV here"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
    )

    def clean(self):
        data = super().clean()
        upload, text = data.get("file"), data.get("text", "")
        if upload:
            if upload.size > MAX_CSV_BYTES:
                raise forms.ValidationError({"file": _("The file is larger than 1 MB.")})
            try:
                data["csv"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(
                    {"file": _("The file is not UTF-8 text; save it as “CSV UTF-8”.")}
                ) from None
        elif text.strip():
            data["csv"] = text
        else:
            raise forms.ValidationError({"file": _("Choose a CSV file or paste its content.")})
        return data
