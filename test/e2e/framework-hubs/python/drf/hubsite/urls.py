from django.urls import path

from awards import views

urlpatterns = [
    path("api/v1", views.discovery),
    path("api/v1/hub/<slug:slug>", views.HubDetail.as_view()),
    path("api/v1/hub/<slug:slug>/leaderboard", views.Leaderboard.as_view()),
    path("api/v1/hub/<slug:slug>/holder/<str:wallet>", views.HolderDetail.as_view()),
    path("api/v1/hub/<slug:slug>/stake-status", views.StakeStatus.as_view()),
    path("api/v1/hub/<slug:slug>/bits/earn", views.AwardCreate.as_view()),
    # Test only, outside the API: every applied award and every balance.
    path("_ledger", views.ledger),
]
