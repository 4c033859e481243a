"""The account's own pages, before allauth's under ``/accounts/``."""

from django.urls import path

from events.accounts import views

app_name = "accounts"

urlpatterns = [
    path("", views.account, name="account"),
    path("delete/", views.account_delete, name="delete"),
    path("two-factor-needed/", views.two_factor_needed, name="two_factor_needed"),
]
